import type { WebhookEvent } from "../../src/domain/webhooks/Webhook.js"
import { describe, layer, type Vitest } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import type { CreateFlagInput } from "../../src/domain/definitions/Flag.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as Webhooks from "../../src/services/webhooks/Webhooks.js"

/**
 * Everything a storage backend provides to the contract suites: what the storage layer provides,
 * and the Webhooks service over it (the webhook contract drives its repository through it).
 */
export type Storage = StorageLayer.Storage | Webhooks.Webhooks

/**
 * Test-only view of "the raw tables": every stored row of every table, serialized, so a suite
 * can prove what is (and is not) written to disk.
 */
export class RawDump extends Context.Tag("@flagport/test/RawDump")<RawDump, Effect.Effect<string, unknown>>() {}

export type Env = Storage | RawDump
export type It = Vitest.MethodsNonLive<Env, true>

export interface Backend {
  readonly name: string
  readonly layer: Layer.Layer<Env, unknown>
}

/** A contract suite: registers its tests on the backend's `it`. */
export type Contract = (it: It) => void

/** The backend's storage layer with the Webhooks service on top. */
export const withWebhooks = <E>(storage: Layer.Layer<StorageLayer.Storage | RawDump, E>): Layer.Layer<Env, E> =>
  Layer.provideMerge(Webhooks.layer, storage)

/** Runs contract suites against one backend; one storage layer (one database) per runner file. */
export const runContracts = (backend: Backend, contracts: ReadonlyArray<readonly [string, Contract]>) =>
  layer(backend.layer, { excludeTestServices: true, timeout: "60 seconds" })(backend.name, (it) => {
    for (const [name, contract] of contracts) describe(name, () => contract(it))
  })

/** Tests share one database, so each works in its own freshly named project. */
export const freshProjectId = (): string => `p-${Math.random().toString(36).slice(2, 12)}`

export const booleanFlag = (key: string): CreateFlagInput => ({
  key,
  name: `Flag ${key}`,
  type: "boolean",
  variations: [
    { key: "on", value: true },
    { key: "off", value: false }
  ]
})

/** A project with the given environments (in order). */
export const givenProject = (...environments: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const projects = yield* Projects
    const envs = yield* Environments
    const id = freshProjectId()
    yield* projects.create({ id, name: `Project ${id}` })
    for (const key of environments) yield* envs.create(id, { key, name: key })
    return id
  })

/** A project with environments and one boolean flag `flag`. */
export const givenFlag = (...environments: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const projectId = yield* givenProject(...environments)
    const flag = yield* (yield* Flags).create(projectId, booleanFlag("flag"))
    return { projectId, flag }
  })

/** The `_tag` of the error an effect fails with (the test fails if it succeeds). */
export const failureTag = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

/** A flag event's data (the outbox also holds change requests' events); fails the test for any other. */
export const flagData = (event: WebhookEvent) => {
  if (!("flag" in event.data)) throw new Error(`${event.type} is not a flag event`)
  return event.data
}
