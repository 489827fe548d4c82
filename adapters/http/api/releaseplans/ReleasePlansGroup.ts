/** The declarations of release plans: a flag's rule ramped up step by step, stopped by guardrails. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { GuardrailCheck } from "../../../../src/domain/experiments/Guardrail.js"
import {
  CreateReleasePlanInput,
  ReleasePlan,
  ResumeReleasePlanInput,
  UpdateReleasePlanInput
} from "../../../../src/domain/releaseplans/ReleasePlan.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described, flagKey, projectId, releasePlanId } from "../Declaring.js"
import { declareOptionalBody } from "../OpenApiDocument.js"
import { ManagementAuth } from "../Security.js"
import * as Examples from "./ReleasePlanExamples.js"

const base = "/v1/projects/{projectId}/flags/{flagKey}/release-plans"
const ReleasePlanDoc = ReleasePlan.annotations({ examples: [Examples.releasePlan] })

export class ReleasePlansGroup extends HttpApiGroup.make("releasePlans")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/flags/${flagKey}/release-plans`.addSuccess(dataOf(ReleasePlanDoc)),
    "List a flag's release plans",
    `Every release plan of the flag in creation order (\`${base}\`), with its status: \`draft\`, \`running\`, \`paused\`, \`harmed\`, \`completed\` or \`cancelled\`. A key bound to an environment sees that environment's only.`
  ))
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/flags/${flagKey}/release-plans`
      .setPayload(strict(CreateReleasePlanInput).annotations({ examples: [Examples.createReleasePlan] }))
      .addSuccess(Created(ReleasePlanDoc))
      .addError(Errors.Conflict),
    "Create a release plan",
    "A draft ramping `variationKey` up in rule `ruleId` of `environment`: `steps` (1 to 20) of `weight` (thousandths of a percent, 1 to 100000, rising) held `holdMinutes` (0.05 to 43200) each; `guardrails` (up to 10 metrics, keys unique) checked at `alpha` (default 0.05); `onHarm` `pause` (default) or `rollback`. The rule must serve some other variation now: the rest of the rule keeps its proportions. 400 with every problem."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}`.addSuccess(ReleasePlanDoc),
    "Get a release plan",
    "One plan: its current step, when the next is due, why it is paused, the harm a guardrail found with its figures."
  ))
  .add(described(
    HttpApiEndpoint.get("guardrails")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}/guardrails`
      .addSuccess(GuardrailCheck.annotations({ examples: [Examples.guardrails] })),
    "Get a release plan's guardrail figures",
    "What the plan's guardrails show now, on its current run's units (from its start, or from its last harm): the check the scheduler makes before each step, each guardrail's units and mean in each arm, the change with its always-valid interval, the p-value, the level it is checked at, and whether it shows harm (`outcome`). A harmed plan's deciding check is its `harm.check`. Read permission, as the plan."
  ))
  .add(described(
    HttpApiEndpoint.patch("update")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}`
      .setPayload(strict(UpdateReleasePlanInput).annotations({ examples: [Examples.updateReleasePlan] }))
      .addSuccess(ReleasePlanDoc)
      .addError(Errors.Conflict),
    "Update a release plan",
    "Changes what is sent, checked as a create (400). Only a draft may change: 409 otherwise. A change request that pins the plan (to start it in a protected environment) can no longer be applied once the plan changed: its author brings it up to date."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}`.addSuccess(HttpApiSchema.NoContent).addError(Errors.Conflict),
    "Delete a release plan",
    "Deletes a draft, completed or cancelled plan, with its guardrails' per-unit rows and totals of every run. One that is running, paused or harmed is 409: cancel it first."
  ))
  .add(described(
    HttpApiEndpoint.post("start")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}/start`.addSuccess(ReleasePlanDoc).addError(Errors.Conflict),
    "Start a release plan",
    "A draft becomes `running`; its first step is applied within a second, then each step after its predecessor's hold, each a targeting write with the actor `{ type: \"releasePlan\", id, startedBy }` (audited, `targeting.updated` and `release_plan.advanced` sent, seen by streams and SDKs at once). The webhook event `release_plan.started` is sent. 409 when it is not a draft, when its rule no longer fits it, or when another plan holds the flag's environment. In a protected environment a person's start is 409 `change_request_required`: open a change request with `releasePlans: [{ flagKey, planId, action: \"start\" }]` instead; once approved, its apply starts the plan (refused with 409 if the plan was edited since), and its steps then apply without further approvals."
  ))
  .add(described(
    HttpApiEndpoint.post("pause")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}/pause`.addSuccess(ReleasePlanDoc).addError(Errors.Conflict),
    "Pause a release plan", "A running plan stops at its weight (`release_plan.paused`). 409 when it is not running."))
  .add(described(
    HttpApiEndpoint.post("resume")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}/resume`
      .setPayload(Schema.NullOr(strict(ResumeReleasePlanInput.annotations({ examples: [Examples.resumeReleasePlan] }))))
      .addSuccess(ReleasePlanDoc)
      .addError(Errors.Conflict)
      .annotate(OpenApi.Transform, declareOptionalBody),
    "Resume a release plan",
    "A paused or harmed plan runs again: it holds its weight a full hold before the next step; after a rollback it starts again from the first step (the same units as before at each weight). A plan paused by a person's direct change to its flag's targeting is 409 until resumed with `{ \"confirm\": true }`. In a protected environment a person's resume of a harmed plan, or of one paused by a person's change, is 409 `change_request_required` (a change request with `action: \"resume\"` resumes it once approved); a plan paused by hand, or whose step failed, resumes directly. The body is optional."
  ))
  .add(described(
    HttpApiEndpoint.post("cancel")`/v1/projects/${projectId}/flags/${flagKey}/release-plans/${releasePlanId}/cancel`.addSuccess(ReleasePlanDoc).addError(Errors.Conflict),
    "Cancel a release plan", "The plan stops for good; the rule keeps the weight it has (`release_plan.cancelled`). 409 when it is completed or cancelled."))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "Release plans: a variation ramped up step by step, stopped when a guardrail metric is harmed.") {}
