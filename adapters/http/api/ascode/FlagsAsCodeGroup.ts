/**
 * The declarations of flags as code (docs/guide/flags-as-code.md): a project exported as its
 * declarative file, and a file applied (or planned). The file's JSON Schema: SchemasGroup.ts.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { ApplyResult } from "../../../../src/domain/ascode/ApplyResult.js"
import { EXPORT_FORMATS } from "../../../../src/domain/ascode/ExportText.js"
import { ProjectFile } from "../../../../src/domain/ascode/ProjectFile.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

export const ExportQuery = strict(Schema.Struct({
  format: Schema.optional(Schema.Literal(...EXPORT_FORMATS).annotations({
    description: "`yaml` (default) or `json`: the project file; `openfeature-manifest`: the OpenFeature CLI's flag manifest (JSON)."
  })),
  environment: Schema.optional(Schema.String.annotations({
    description: "`openfeature-manifest` only: the environment whose default values the manifest gives (default: the project's first)."
  }))
}))

const Flag = Schema.Literal("true", "false")

export const ApplyQuery = strict(Schema.Struct({
  dryRun: Schema.optional(Flag.annotations({ description: "`true`: answer the plan, change nothing." })),
  prune: Schema.optional(Flag.annotations({ description: "`true`: also delete the flags and segments the file leaves out." })),
  plan: Schema.optional(Schema.String.pipe(Schema.pattern(/^[0-9a-f]{16}$/)).annotations({
    description: "The `fingerprint` of a plan shown before (a dry run's answer, `flagport apply --dry-run`): apply exactly that plan, or refuse with 409 and change nothing if the project moved since (the plan would now differ)."
  }))
}))

export class FlagsAsCodeGroup extends HttpApiGroup.make("flagsAsCode")
  .add(described(
    HttpApiEndpoint.get("export")`/v1/projects/${projectId}/export`
      .setUrlParams(ExportQuery)
      .addSuccess(HttpApiSchema.Text({ contentType: "application/yaml" }).annotations({
        description: "The project file (YAML, or JSON with `format=json`), or the OpenFeature manifest (JSON)."
      })),
    "Export the project as a file",
    "The project's environments, segments and flags with their targeting in each environment, as the declarative file `flagport apply` and `POST .../apply` take: environments in the project's order, segments and flags sorted by key; no keys, secrets, versions or usage. The same text as `flagport export`. `format=openfeature-manifest` answers the OpenFeature CLI's flag manifest instead."
  ))
  .add(described(
    HttpApiEndpoint.post("apply")`/v1/projects/${projectId}/apply`
      .setUrlParams(ApplyQuery)
      .setPayload(strict(ProjectFile).annotations({ examples: [Examples.applyFile] }))
      .addSuccess(ApplyResult.annotations({ examples: [Examples.applied] }))
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict)
      .addError(Errors.PreconditionFailed),
    "Apply a project file",
    "Makes the project what the file says (JSON, or YAML with `Content-Type: application/yaml`). The whole file is checked first: 400 with every problem, each with its path in the file, and nothing applied. The answer is the plan (each change with the item before and after); unless `dryRun=true`, it is applied in one transaction, one audit entry per change with the caller as actor; 409 when the project changed while it was applied, or, with `plan=<fingerprint>`, since that plan was shown (the answer's `fingerprint`: a CI job shows the plan on a pull request and applies that plan on merge). A second apply of the same file changes nothing. Needs write in the project; creating or changing an environment needs admin (manage), creating the project a global administrator. In a protected environment a person's targeting changes are proposed as change requests instead (`changeRequests` in the answer: `opened`, or `updated` when the person's own pending request already names the flag); what their pending requests already propose, on the flags' versions now, is no change (`pendingChangeRequests`), so applying the same file again opens nothing. Server keys write directly."
  ))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "Flags as code: a project as a declarative file, exported and applied.") {}
