import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ApiKey, ApiKeyType } from "../../domain/auth/ApiKey.js"
import * as Base64 from "../../domain/Base64.js"
import { keyIdOf } from "../../domain/auth/Caller.js"
import { keySeen } from "../../domain/auth/EnvironmentView.js"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { Forbidden, InvalidRequest, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { environmentNotFound, keyNotFound } from "../../domain/NotFound.js"
import { ApiKeyRepository } from "../../ports/ApiKeyRepository.js"
import { Crypto, type CryptoShape } from "../../ports/Crypto.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize, authorizeGlobal, reach } from "../shared/Authorize.js"
import { currentTimestamp } from "../shared/Now.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"
import * as KeyRevocation from "./KeyRevocation.js"
import * as MakerKeys from "./MakerKeys.js"

export interface CreateApiKeyInput {
  readonly type: ApiKeyType
  readonly projectId?: string | null | undefined
  /** Binds the key to this environment of its project (which must exist); null/absent = every environment. */
  readonly environment?: string | null | undefined
  readonly name?: string | undefined
}

/**
 * Who may ask (`CurrentCaller`, domain/auth/Permissions.ts): a project's keys are its admins'
 * (`manage`), and a key bound to an environment lists, makes and revokes only keys bound to that
 * same environment (never one wider than itself); global keys (no project) are the operator's
 * alone: made, listed and revoked with the command line.
 */
export interface ApiKeysShape {
  /**
   * Makes a new key: `srv_` / `cli_` followed by 43 random base64url characters (256 bits from
   * the OS CSPRNG). Only its SHA-256 hash is stored; `secret` is returned this once.
   * 400 for a client key without a project or an environment-bound key without one, 404 for an
   * unknown project or environment.
   */
  readonly create: (
    input: CreateApiKeyInput
  ) => Effect.Effect<{ readonly apiKey: ApiKey; readonly secret: string }, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
  /** Every key (revoked included) in creation order; never the secrets. The operator's only. */
  readonly list: () => Effect.Effect<ReadonlyArray<ApiKey>, Forbidden | StorageError>
  /**
   * Revokes a key (idempotent) and returns it; 404 for an unknown id. The key's pending schedules
   * are cancelled in the same transaction, each with its audit entry, by the revoker. The operator's only.
   */
  readonly revoke: (id: string) => Effect.Effect<ApiKey, ResourceNotFound | Forbidden | StorageError>
  /**
   * The keys scoped to one project (revoked included), in creation order, as the caller sees them
   * (a key bound to an environment: the keys bound to that same one, itself among them: the keys it
   * may revoke); 404 for an unknown project.
   */
  readonly listInProject: (projectId: string) => Effect.Effect<ReadonlyArray<ApiKey>, ResourceNotFound | Forbidden | StorageError>
  /**
   * Revokes a key of one project. A key of another project, or a global key, is not found here
   * (global keys are revoked only with the CLI); a key cannot revoke itself (409), so nobody locks
   * themselves out by accident; a key bound to an environment revokes no key wider than itself
   * (403, though its list leaves that key out, as other records of other environments named by id are).
   */
  readonly revokeInProject: (
    projectId: string,
    id: string
  ) => Effect.Effect<ApiKey, ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /**
   * The live (not revoked) key whose secret this is, found by hash. Records the use in
   * `lastUsedAt`, at most once a minute per key so that reads do not turn into a write each.
   */
  readonly authenticate: (secret: string) => Effect.Effect<Option.Option<ApiKey>, StorageError>
}

export class ApiKeys extends Context.Tag("@flagport/services/ApiKeys")<ApiKeys, ApiKeysShape>() {}

/** SHA-256 of the whole key, lowercase hex: the only form in which keys are stored. */
export const hashSecret = (crypto: CryptoShape, secret: string): string => crypto.sha256Hex(secret)

/** A fresh secret with its type prefix. */
export const generateSecret = (crypto: CryptoShape, type: ApiKeyType): string =>
  `${type === "server" ? "srv_" : "cli_"}${Base64.urlFromBytes(crypto.randomBytes(32))}`

/** `lastUsedAt` is refreshed only when older than this, bounding writes caused by reads. */
export const TOUCH_INTERVAL_MS = 60_000

export const make = Effect.gen(function* () {
  const keys = yield* ApiKeyRepository
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const ids = yield* IdGenerator
  const crypto = yield* Crypto
  const writes = yield* Writes.writer
  const revokeKey = yield* KeyRevocation.revoker
  const makerOf = yield* MakerKeys.makerOf
  const makerKeeps = yield* MakerKeys.keeping

  const create = Effect.fn("ApiKeys.create")(function* (input: CreateApiKeyInput) {
    const projectId = input.projectId ?? null
    if (projectId === null) yield* authorizeGlobal("ApiKeys.createGlobal")
    else yield* authorize("ApiKeys.create", projectId, [input.environment ?? null])
    if (input.type === "client" && projectId === null) {
      return yield* new InvalidRequest({
        message: "Client keys must be scoped to a project.",
        details: [{ path: "projectId", message: "is required for a client key" }]
      })
    }
    const environment = input.environment ?? null
    // An environment is a key within one project: a global key has no project to name it in.
    if (environment !== null && projectId === null) {
      return yield* new InvalidRequest({
        message: "A key bound to an environment must be scoped to a project.",
        details: [{ path: "projectId", message: "is required for a key bound to an environment" }]
      })
    }
    const id = yield* ids.next
    const secret = generateSecret(crypto, input.type)
    // Checked before the transaction, which then holds a single write (on SQLite a transaction that
    // reads before writing can lose the race for the write lock); the foreign key covers the gap.
    if (projectId !== null) yield* requireProject(projects, projectId)
    if (projectId !== null && environment !== null) {
      const found = yield* environments.get(projectId, environment)
      if (Option.isNone(found)) return yield* environmentNotFound(projectId, environment)
    }
    const createdBy = yield* makerOf(yield* CurrentActor)
    const keyAt = (now: string): ApiKey => ({
      id,
      type: input.type,
      projectId,
      environment,
      name: input.name ?? "",
      prefix: secret.slice(0, 8),
      createdAt: now,
      createdBy,
      lastUsedAt: null,
      revokedAt: null
    })
    // Recorded in the key's project's audit log; a global key belongs to no project, so no log
    // holds it (global keys are made and revoked only with the command line).
    const created = writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        // The maker was read before the write: disabled or demoted since (a write racing this
        // one), they may not keep the key, and it is not made (MakerKeys.keeping).
        if (createdBy !== null && !(yield* makerKeeps(createdBy, projectId))) return yield* new Forbidden({ message: MakerKeys.MAKER_MAY_NOT_MANAGE })
        const apiKey = keyAt(now)
        yield* keys.insert(apiKey, hashSecret(crypto, secret))
        return {
          value: apiKey,
          audit: [{ action: "key.created" as const, resource: { type: "key" as const, key: apiKey.id }, ...(environment === null ? {} : { environment }), before: null, after: apiKey }]
        }
      }))
    // A hash collision of 256 random bits does not happen; a duplicate here is a bug.
    const apiKey = yield* created.pipe(Effect.catchTag("DuplicateKey", Effect.die))
    return { apiKey, secret }
  })

  const list = Effect.fn("ApiKeys.list")(function* () {
    yield* authorizeGlobal("ApiKeys.list")
    return yield* keys.list()
  })

  const revoke = Effect.fn("ApiKeys.revoke")(function* (id: string) {
    yield* authorizeGlobal("ApiKeys.revoke")
    // Read before the transaction, which then starts with its write (see create); also names the
    // project whose audit log records the revocation.
    const before = yield* keys.get(id)
    if (Option.isNone(before)) return yield* keyNotFound(id)
    return yield* revokeKey(before.value)
  })

  const listInProject = Effect.fn("ApiKeys.listInProject")(function* (projectId: string) {
    const { seen } = yield* authorize("ApiKeys.listInProject", projectId)
    yield* requireProject(projects, projectId)
    const all = yield* keys.list()
    return all.filter((key) => key.projectId === projectId && keySeen(seen, key))
  })

  const revokeInProject = Effect.fn("ApiKeys.revokeInProject")(function* (projectId: string, id: string) {
    const { caller } = yield* authorize("ApiKeys.revokeInProject", projectId)
    yield* requireProject(projects, projectId)
    const found = yield* keys.get(id)
    if (Option.isNone(found) || found.value.projectId !== projectId) return yield* keyNotFound(id)
    yield* reach("ApiKeys.revokeInProject", [found.value.environment])
    if (id === keyIdOf(caller)) {
      return yield* new ResourceConflict({ message: "An API key cannot revoke itself; revoke it with another key or the CLI." })
    }
    return yield* revokeKey(found.value)
  })

  const authenticate = Effect.fn("ApiKeys.authenticate")(function* (secret: string) {
    const found = yield* keys.findByHash(hashSecret(crypto, secret))
    if (Option.isNone(found) || found.value.revokedAt !== null) return Option.none<ApiKey>()
    const key = found.value
    const now = yield* currentTimestamp
    const last = key.lastUsedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(key.lastUsedAt)
    if (Date.parse(now) - last < TOUCH_INTERVAL_MS) return Option.some(key)
    // The write may wait for another process's lock (SQLite), during which the key may be revoked:
    // its answer, newer than the read, decides.
    if (!(yield* keys.touch(key.id, now))) return Option.none<ApiKey>()
    return Option.some<ApiKey>({ ...key, lastUsedAt: now })
  })

  return ApiKeys.of({ create, list, revoke, listInProject, revokeInProject, authenticate })
})

export const layer = Layer.effect(ApiKeys, make)
