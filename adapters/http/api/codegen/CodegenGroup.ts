/** The declaration of typed code generation: the TypeScript module of `flagport codegen`. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Errors from "../../shared/Errors.js"
import { described, projectId } from "../Declaring.js"
import { ManagementAuth } from "../Security.js"

export class CodegenGroup extends HttpApiGroup.make("codegen")
  .add(described(
    HttpApiEndpoint.get("typescript")`/v1/projects/${projectId}/codegen/typescript`
      .addSuccess(HttpApiSchema.Text({ contentType: "text/plain; charset=utf-8" })),
    "TypeScript declarations of the project's flags",
    "A TypeScript module declaring every flag key of the project with its type (`export type Flags`), for `createClient<Flags>(...)` of flagport/client: an unknown key, or a key in the getter of another type, then fails to compile. The same text as `flagport codegen --project P`."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Typed code generation for the SDK.") {}
