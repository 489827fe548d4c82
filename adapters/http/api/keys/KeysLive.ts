/**
 * The API keys handlers. A key bound to an environment lists, makes and revokes only keys bound to
 * that same environment (never a key wider than itself).
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { keyIdOf } from "../../../../src/domain/auth/Caller.js"
import { keySeen } from "../../../../src/domain/auth/EnvironmentView.js"
import * as Policy from "../../../../src/domain/auth/Policy.js"
import { ApiKeys } from "../../../../src/services/auth/ApiKeys.js"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"
import { allowedBy, mapped, seenEnvironment } from "../Calling.js"
import { ManagementAccess } from "../Security.js"

/** 403 unless the caller may make a key bound to `environment` (Policy.authorizeKeyCreation: never wider than itself). */
const keyMayBeMade = (environment: string | null) => allowedBy((caller) => Policy.authorizeKeyCreation(caller, environment))

export const KeysLive = HttpApiBuilder.group(FlagportApi, "keys", (handlers) =>
  handlers
    // A bound key lists only the keys of its own environment (EnvironmentView.keySeen): the keys it may revoke.
    .handle("list", ({ path }) =>
      Effect.flatMap(seenEnvironment, (seen) =>
        Effect.flatMap(ApiKeys, (keys) => Effect.map(mapped(keys.listInProject(path.projectId)), (data) => ({ data: data.filter((key) => keySeen(seen, key)) })))))
    .handle("create", ({ path, payload }) =>
      Effect.flatMap(keyMayBeMade(payload.environment ?? null), () => Effect.flatMap(ApiKeys, (keys) =>
        Effect.map(mapped(keys.create({ type: payload.type, name: payload.name, projectId: path.projectId, environment: payload.environment ?? null })), (created) => ({
          ...created.apiKey,
          key: created.secret
        }))
      ))
    )
    // ApiKeys.revoke announces the revocation on the change feed: every process's key cache drops the key.
    .handle("revoke", ({ path }) =>
      Effect.gen(function* () {
        const access = yield* ManagementAccess
        const keys = yield* ApiKeys
        // A bound key revokes only keys of its own environment; an unknown id falls through to the 404.
        const target = (yield* mapped(keys.listInProject(path.projectId))).find((key) => key.id === path.keyId)
        if (target !== undefined) {
          yield* Either.match(Policy.authorizeKeyRevocation(access.caller, target.environment), {
            onLeft: (denied) => Effect.fail(Errors.forbidden(denied.message)),
            onRight: () => Effect.void
          })
        }
        yield* mapped(keys.revokeInProject(path.projectId, path.keyId, keyIdOf(access.caller)))
      })
    )
)
