/** The environments handlers: each a call to its use case, which decides who may ask for it. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { EnvironmentCopy } from "../../../../src/services/projects/EnvironmentCopy.js"
import { Environments } from "../../../../src/services/projects/Environments.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"
import { ifMatchOf } from "../Versioning.js"

export const EnvironmentsLive = HttpApiBuilder.group(FlagportApi, "environments", (handlers) =>
  handlers
    .handle("list", ({ path }) => Effect.flatMap(Environments, (envs) => Effect.map(mapped(envs.list(path.projectId)), (data) => ({ data }))))
    .handle("create", ({ path, payload }) => Effect.flatMap(Environments, (envs) => mapped(envs.create(path.projectId, payload))))
    .handle("update", ({ path, payload }) => Effect.flatMap(Environments, (envs) => mapped(envs.update(path.projectId, path.environmentKey, payload))))
    .handle("copy", ({ headers, path, payload }) =>
      Effect.flatMap(ifMatchOf(headers), (options) =>
        Effect.flatMap(EnvironmentCopy, (copies) => Effect.map(mapped(copies.copy(path.projectId, path.environmentKey, payload, options)), (data) => ({ data })))))
)
