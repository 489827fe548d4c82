/** The project file's JSON Schema, as the domain derives it from the file's Schema. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { projectFileJsonSchema } from "../../../../src/domain/ascode/ProjectFileSchema.js"
import { FlagportApi } from "../Api.js"

export const SchemasLive = HttpApiBuilder.group(FlagportApi, "schemas", (handlers) =>
  handlers.handle("projectFile", () => Effect.succeed(projectFileJsonSchema())))
