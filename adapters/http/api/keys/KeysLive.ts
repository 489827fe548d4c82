/** The API keys handlers: each a call to the `ApiKeys` use case, which decides who may ask for it. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { ApiKeys } from "../../../../src/services/auth/ApiKeys.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const KeysLive = HttpApiBuilder.group(FlagportApi, "keys", (handlers) =>
  handlers
    .handle("list", ({ path }) => Effect.flatMap(ApiKeys, (keys) => Effect.map(mapped(keys.listInProject(path.projectId)), (data) => ({ data }))))
    .handle("create", ({ path, payload }) =>
      Effect.flatMap(ApiKeys, (keys) =>
        Effect.map(
          mapped(keys.create({ type: payload.type, name: payload.name, projectId: path.projectId, environment: payload.environment ?? null })),
          (created) => ({ ...created.apiKey, key: created.secret })
        )))
    // ApiKeys.revoke announces the revocation on the change feed: every process's key cache drops the key.
    .handle("revoke", ({ path }) => Effect.flatMap(ApiKeys, (keys) => Effect.asVoid(mapped(keys.revokeInProject(path.projectId, path.keyId)))))
)
