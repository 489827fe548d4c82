/**
 * The declarations of flags: their variations, shared by the project, and their targeting (on/off,
 * rules, rollouts) in each environment, with optimistic concurrency (`If-Match`, Versioning.ts).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { CreateFlagInput, PatchFlagInput } from "../../../../src/domain/definitions/Flag.js"
import { FlagListQuery } from "../../../../src/domain/definitions/FlagList.js"
import { documentName } from "../../../../src/domain/DocumentName.js"
import { TargetingInput } from "../../../../src/domain/definitions/Targeting.js"
import { ConfigWithUsage, FlagWithUsage } from "../../../../src/domain/insights/Usage.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, described, flagKey, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"
import { IfMatchHeaders, TargetingIfMatchHeaders, TargetingQuery } from "../Versioning.js"

// The resource with its example: one instance, so every operation refers to one component.
const FlagDoc = FlagWithUsage.annotations({ examples: [Examples.flagWithUsage] })

/** One answer of the flags list (FlagList.ts): every flag, or one page and where the next starts. */
const FlagListPageDoc = Schema.Struct({
  data: Schema.Array(FlagDoc),
  nextCursor: Schema.NullOr(Schema.String).annotations({
    description: "Where the next page starts: send it as `cursor`. Null on the last page, and when the list was not paged (neither `limit` nor `cursor`)."
  })
}).annotations({ ...documentName("FlagListPage"), examples: [Examples.flagListPage] })

export class FlagsGroup extends HttpApiGroup.make("flags")
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/flags`.setPayload(strict(CreateFlagInput).annotations({ examples: [Examples.createFlag] })).addSuccess(Created(FlagDoc))
      .addError(Errors.Conflict),
    "Create a flag",
    "Creates a flag with its variations. In every environment it starts disabled, serving its first variation by default and its last one when off; set targeting with PUT .../targeting. 409 when the key is taken."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/flags`.setUrlParams(strict(FlagListQuery)).addSuccess(FlagListPageDoc),
    "List flags",
    "Every flag of the project with its configuration in each environment (each with `lastEvaluatedAt`), in creation order, `nextCursor` null. `status=stale` keeps only the stale flags: not evaluated in any environment for FLAGPORT_STALE_AFTER_DAYS (default 30) days, and older than that; `type` keeps one type; `q` keeps the flags whose key or name contains it, ignoring case. With `limit` (1-200) or `cursor` the answer is one page of them in key order, and `nextCursor` (null on the last page) is the `cursor` of the next: send the same `status`, `type` and `q` with it. Paging by key means a flag created or deleted meanwhile never repeats or hides another. A `limit` out of range or a cursor no page answered is a 400. A key bound to an environment gets each flag with that environment's configuration only."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/flags/${flagKey}`.addSuccess(FlagDoc),
    "Get a flag",
    "One flag with its configuration in each environment (a key bound to an environment: that one's only). The `ETag` response header is the flag's version, for `If-Match` on a later write."
  ))
  .add(described(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/flags/${flagKey}`
      .setPayload(strict(PatchFlagInput).annotations({ examples: [Examples.patchFlag] }))
      .setHeaders(IfMatchHeaders)
      .addSuccess(FlagDoc)
      .addError(Errors.Conflict)
      .addError(Errors.PreconditionFailed),
    "Update a flag",
    "Changes the name, description or variations; send only what changes. A variation still used by a configuration or rule cannot be removed (409). With `If-Match`, 412 unless the flag is still at that version. While the project has a protected environment, a person's change to an existing variation's value, or removal of a variation, is refused with 409 `change_request_required` naming the first protected environment (change requests carry targeting only: a server key writes it directly, audited under its name); name, description and new variations stay open to people."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/flags/${flagKey}`
      .setHeaders(IfMatchHeaders)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(Errors.PreconditionFailed)
      .addError(Errors.Conflict),
    "Delete a flag",
    "Deletes the flag in every environment. Evaluations then answer `FLAG_NOT_FOUND`. With `If-Match`, 412 unless the flag is still at that version. 409 while another flag names it as a prerequisite, while a release plan holds it (running, paused or harmed: cancel the plan first), or while a running experiment measures it (stop the experiment first); its other release plans are deleted with it, and its stopped and draft experiments keep their records. While the project has a protected environment, a person's delete is refused with 409 `change_request_required` naming the first protected environment (a server key deletes directly, audited under its name)."
  ))
  .add(described(
    HttpApiEndpoint.get("getTargeting")`/v1/projects/${projectId}/flags/${flagKey}/targeting`
      .setUrlParams(TargetingQuery)
      .addSuccess(ConfigWithUsage.annotations({ examples: [Examples.flagWithUsage.configs[0]!] })),
    "Get a flag's targeting in one environment",
    "The flag's configuration in `environment`, with its `version` and `lastEvaluatedAt`. The `ETag` response header is `\"<environment>:<version>\"`: send it in `If-Match` on PUT .../targeting to be refused (412) only when this environment's configuration, or the flag's variations, changed since, so that people editing different environments of one flag never block each other. 404 for an unknown environment."
  ))
  .add(described(
    HttpApiEndpoint.put("replaceTargeting")`/v1/projects/${projectId}/flags/${flagKey}/targeting`
      .setPayload(strict(TargetingInput).annotations({ examples: [Examples.replaceTargeting] }))
      .setHeaders(TargetingIfMatchHeaders)
      .addSuccess(FlagDoc)
      .addError(Errors.PreconditionFailed)
      .addError(Errors.Conflict),
    "Replace a flag's targeting in one environment",
    "Replaces the whole configuration of the flag in one environment: on/off, the default and off variations, and the rules, evaluated in order. A rule serves exactly one of `variationKey` and `rollout`; rule ids are assigned when missing. With `If-Match` naming the flag's ETag, 412 unless the flag is still at that version; naming this environment's targeting ETag (`\"<environment>:<version>\"`), 412 only when this environment's configuration or the flag's variations changed since (a change to another environment, or to the name or description, does not conflict); an ETag of another environment's targeting is a 400. The `ETag` answered is the flag's; the configuration's new version is in `configs`. In a protected environment a person's change needs an approved change request: 409 `change_request_required` (server keys write directly)."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Feature flags: variations shared by the project, and targeting (on/off, rules, rollouts) per environment.") {}
