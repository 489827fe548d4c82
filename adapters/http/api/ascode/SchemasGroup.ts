/** The declaration of the published schemas: the project file's JSON Schema, for editors (no authentication). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { PROJECT_FILE_SCHEMA_PATH } from "../../../../src/domain/ascode/ProjectFileSchema.js"
import { described } from "../Declaring.js"

export class SchemasGroup extends HttpApiGroup.make("schemas")
  .add(described(
    HttpApiEndpoint.get("projectFile", PROJECT_FILE_SCHEMA_PATH).addSuccess(Schema.Unknown.annotations({ description: "A JSON Schema (draft-07)." })),
    "JSON Schema of the project file",
    "The JSON Schema of the file `flagport export` writes and `flagport apply` reads, for editors: `# yaml-language-server: $schema=<this URL>` at the top of a YAML file. No authentication."
  ))
  .annotate(OpenApi.Description, "Published schemas (no authentication).") {}
