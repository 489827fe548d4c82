/** The TypeScript declarations of a project's flags, as `flagport codegen` writes them. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { typescriptModule } from "../../../../src/domain/codegen/TypeScriptModule.js"
import { Flags } from "../../../../src/services/flags/Flags.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const CodegenLive = HttpApiBuilder.group(FlagportApi, "codegen", (handlers) =>
  handlers.handle("typescript", ({ path }) =>
    Effect.flatMap(Flags, (flags) => Effect.map(mapped(flags.list(path.projectId)), (list) => typescriptModule(path.projectId, list)))
  )
)
