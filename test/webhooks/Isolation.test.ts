import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as WebhookDispatcher from "../../src/services/webhooks/WebhookDispatcher.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import type { Backend } from "../fixtures/databases.js"
import { webhookEnv } from "./fixtures/Env.js"
import { booleanFlag } from "./fixtures/Flags.js"
import { receiver } from "./fixtures/Receiver.js"

/**
 * A destination that never answers costs only its own webhook: with 50 of them hanging (real
 * receivers on 127.0.0.1, the real transport with its 10 s timeout, the running dispatcher on the
 * real clock), another project's delivery still arrives within 2 s of its event, and each hanging
 * webhook keeps its own order (its next event waits behind the one in flight).
 */

const HANGING = 50

const project = (id: string) =>
  Effect.gen(function* () {
    yield* (yield* Projects).create({ id, name: id })
    yield* (yield* Environments).create(id, { key: "production", name: "Production" })
  })

const isolation = (backend: Backend) =>
  it.live(`${HANGING} hanging receivers do not delay another project's delivery (${backend})`, () =>
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      const flags = yield* Flags
      // Spread over projects of 10 (a project may have 20 webhooks).
      const stuckProjects = Array.from({ length: HANGING / 10 }, (_, i) => `stuck-${i}`)
      for (const id of stuckProjects) yield* project(id)
      yield* project("healthy")
      const stuck = yield* Effect.forEach(Array.from({ length: HANGING }), () => receiver(() => "hang"))
      for (const [i, r] of stuck.entries()) yield* webhooks.create(stuckProjects[i % stuckProjects.length]!, { url: r.url, events: ["flag.created"] })
      const healthy = yield* receiver(() => 204)
      yield* webhooks.create("healthy", { url: healthy.url, events: ["flag.created"] })

      yield* Layer.build(WebhookDispatcher.layerWith({ pollInterval: "200 millis" }))
      for (const id of stuckProjects) yield* flags.create(id, booleanFlag("first"))
      yield* Effect.promise(() => Promise.all(stuck.map((r) => r.waitFor(1, 2_000))))
      for (const id of stuckProjects) yield* flags.create(id, booleanFlag("second"))

      const before = Date.now()
      yield* flags.create("healthy", booleanFlag("unrelated"))
      yield* Effect.promise(() => healthy.waitFor(1, 5_000))
      expect(healthy.received[0]!.at - before).toBeLessThan(2_000)
      expect(JSON.parse(healthy.received[0]!.body).data.flag.key).toBe("unrelated")
      // Per-webhook order: "second" is held while "first" is in flight.
      expect(stuck.map((r) => r.received.length)).toEqual(Array(HANGING).fill(1))
    }).pipe(
      // Scoped inside the storage: the dispatcher and the receivers stop before the database closes.
      Effect.scoped,
      Effect.provide(webhookEnv(backend))
    ), 30_000)

describe("webhook isolation", () => {
  isolation("memory")
  isolation("sqlite")
  isolation("postgres")
})
