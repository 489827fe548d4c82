/**
 * The environments handlers. A key bound to an environment changes only that one and copies into it
 * only from itself (it could otherwise read another's configuration there); it makes no environment.
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { EnvironmentCopy } from "../../../../src/services/projects/EnvironmentCopy.js"
import { Environments } from "../../../../src/services/projects/Environments.js"
import { FlagportApi } from "../Api.js"
import { mapped, mayRead, mayWrite, mayWriteAll } from "../Calling.js"
import { ifMatchOf } from "../Versioning.js"

export const EnvironmentsLive = HttpApiBuilder.group(FlagportApi, "environments", (handlers) =>
  handlers
    .handle("list", ({ path }) =>
      Effect.flatMap(Environments, (envs) => Effect.map(mapped(envs.list(path.projectId)), (data) => ({ data })))
    )
    // A new environment is one the bound key could neither read nor write: no bound key makes one.
    .handle("create", ({ path, payload }) => Effect.zipRight(mayWriteAll, Effect.flatMap(Environments, (envs) => mapped(envs.create(path.projectId, payload)))))
    .handle("update", ({ path, payload }) =>
      Effect.zipRight(
        mayWrite(path.environmentKey),
        Effect.flatMap(Environments, (envs) => mapped(envs.update(path.projectId, path.environmentKey, payload)))
      )
    )
    .handle("copy", ({ headers, path, payload }) =>
      Effect.gen(function* () {
        yield* mayWrite(path.environmentKey)
        // Copying reads the source: a bound key copying another environment into its own could then read it there.
        yield* mayRead(payload.from)
        const options = yield* ifMatchOf(headers)
        const copies = yield* EnvironmentCopy
        return { data: yield* mapped(copies.copy(path.projectId, path.environmentKey, payload, options)) }
      })
    )
)
