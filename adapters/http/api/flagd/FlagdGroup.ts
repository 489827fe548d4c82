/**
 * The flagd import over HTTP (docs/guide/coming-from-flagd.md): a flagd flag definition file sent
 * as the body, translated and checked whole, answered as a listing (a dry run first), then
 * imported in one transaction by the same use case as `flagport import flagd`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { ImportReport } from "../../../../src/domain/flagd/ImportReport.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described, projectId } from "../Declaring.js"
import { ManagementAuth } from "../Security.js"

const Flag = Schema.Literal("true", "false")

export const FlagdImportQuery = strict(Schema.Struct({
  environment: Schema.String.annotations({ description: "The environment whose targeting the flags' rules become (enabled there; disabled in the others)." }),
  dryRun: Schema.optional(Flag.annotations({ description: "`true`: answer the listing, write nothing." })),
  skipUnsupported: Schema.optional(Flag.annotations({ description: "`true`: import the flags that translate and leave out the refused ones (else a refused flag imports nothing: 400)." }))
}))

/** A flagd flag definition file, as flagd reads it (only its shape is declared here: the import checks it whole). */
const FlagdFile = Schema.Struct({
  $schema: Schema.optional(Schema.String),
  flags: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  $evaluators: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  metadata: Schema.optional(Schema.Unknown)
}).annotations({
  title: "FlagdFile",
  description: "A flagd flag definition file (https://flagd.dev/reference/flag-definitions/): `flags` by key, each with `state`, `variants`, `defaultVariant` and optional `targeting` (JsonLogic).",
  examples: [{
    flags: {
      "new-search": {
        state: "ENABLED",
        variants: { on: true, off: false },
        defaultVariant: "off",
        targeting: { if: [{ ends_with: [{ var: "email" }, "@example.com"] }, "on", "off"] }
      }
    }
  }]
})

export class FlagdGroup extends HttpApiGroup.make("flagd")
  .add(described(
    HttpApiEndpoint.post("importFlagd")`/v1/projects/${projectId}/import/flagd`
      .setUrlParams(FlagdImportQuery)
      .setPayload(FlagdFile)
      .addSuccess(ImportReport.annotations({
        examples: [{
          projectId: "shop",
          environment: "production",
          written: true,
          flags: [{ key: "new-search", result: "imported", rules: 1 }],
          changeRequests: []
        }]
      }))
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict)
      .addError(Errors.PreconditionFailed),
    "Import a flagd flag definition file",
    "Creates a flag for each flag of the file (JSON, or YAML with `Content-Type: application/yaml`): its variants become variations, its targeting the rules of `environment` (enabled there, disabled in the others). Each flag is translated only when Flagport gives the same answer as flagd on every context; otherwise it is refused with its path in the file and the reason, and so is a key the project already has (an import only creates flags). `dryRun=true` answers the listing and writes nothing: show it, then send the same file without it. Without `dryRun`, all the flags are written in one transaction, each audited as any create and targeting write with the caller as actor; a refused flag makes it import nothing (400, each refusal in `details`) unless `skipUnsupported=true` leaves the refused ones out. Needs write in the project (every environment: no key bound to one). A person importing into a protected environment creates the flags and proposes their targeting as change requests (`changeRequests` in the answer; the flags `proposed`); server keys write it directly."
  ))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "Coming from flagd: its flag definition files imported.") {}
