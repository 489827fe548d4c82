/** The declarations of change requests: proposed targeting changes to one environment, approved by others, then applied. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  ApproveInput,
  ChangeRequest,
  ChangeRequestStatus,
  CreateChangeRequestInput,
  RejectInput,
  UpdateChangeRequestInput
} from "../../../../src/domain/changes/ChangeRequest.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { changeRequestId, Created, dataOf, described, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { declareOptionalBody } from "../OpenApiDocument.js"
import { ManagementAuth } from "../Security.js"

const ChangeRequestDoc = ChangeRequest.annotations({ examples: [Examples.changeRequest] })

export const ChangeRequestsQuery = strict(Schema.Struct({
  status: Schema.optional(ChangeRequestStatus)
}))

const item = `/v1/projects/{projectId}/change-requests/{changeRequestId}`

export class ChangeRequestsGroup extends HttpApiGroup.make("changeRequests")
  .add(described(
    HttpApiEndpoint.post("open")`/v1/projects/${projectId}/change-requests`
      .setPayload(strict(CreateChangeRequestInput).annotations({ examples: [Examples.openChangeRequest] }))
      .addSuccess(Created(ChangeRequestDoc))
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict),
    "Open a change request",
    "Proposes targeting changes to one environment (one to 50 flags; each `targeting` is the body of PUT .../targeting, its `environment` may be left out), release plans to start or resume there (`releasePlans`: up to 10, one per flag), or both. Each change is checked as that PUT would check it (400 the same way, paths under `changes[i].targeting`), and the flag's version and configuration now are recorded (`baseVersion`, `before`); each plan must be of the request's environment (400) and able to take its action now (409 as the start or resume would answer), and is pinned as it is now (`baseVersion`, `plan`). The apply makes the targeting changes, then starts or resumes the plans; a plan changed since it was pinned is a 409 and nothing is applied. Editors and admins. With `applyAt`, the scheduler applies it at that time once approved."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/change-requests`.setUrlParams(ChangeRequestsQuery).addSuccess(dataOf(ChangeRequestDoc)),
    "List change requests",
    "The project's change requests, newest first; `status=` keeps one status (`open`, `approved`, `rejected`, `cancelled`, `applied`). Each approval says whether it still counts now (`counts`), and each request how many do (`countingApprovals`)."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/change-requests/${changeRequestId}`.addSuccess(ChangeRequestDoc),
    "Read a change request",
    "One change request with each flag's `before` and `after`, its approvals and its status. Each approval says whether it still counts (`counts`, and `notCountingReason` when not: its approver was since demoted, removed or disabled, or its key revoked), and `countingApprovals` how many do: an `approved` request with fewer than `requiredApprovals` counting is not ready to apply (409). Every change-request answer shows them the same way."
  ))
  .add(described(
    HttpApiEndpoint.put("update")`/v1/projects/${projectId}/change-requests/${changeRequestId}`
      .setPayload(strict(UpdateChangeRequestInput))
      .addSuccess(ChangeRequestDoc)
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict),
    "Update a change request",
    "By its author while it is open or approved: replaces what is sent and clears the approvals (it is `open` again). `changes` are checked as on opening and based on the flags' versions now, `releasePlans` checked and pinned on the plans as they are now; left out, they stay exactly as they were (base versions included), so `title`, `description` and `applyAt` (null: by hand) can be edited alone. 400 when nothing is sent, 403 for anyone else, 409 once it is closed."
  ))
  .add(described(
    HttpApiEndpoint.post("approve")`/v1/projects/${projectId}/change-requests/${changeRequestId}/approve`
      .setPayload(Schema.NullOr(strict(ApproveInput)))
      .addSuccess(ChangeRequestDoc)
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict)
      .annotate(OpenApi.Transform, declareOptionalBody),
    "Approve a change request",
    "By a project admin who is not its author, once each (403 \"You cannot approve your own change request\"; 409 a second time). It becomes `approved` when its approvals reach `requiredApprovals`. The body (`comment`) is optional: none at all is the same as `{}`."
  ))
  .add(described(
    HttpApiEndpoint.post("reject")`/v1/projects/${projectId}/change-requests/${changeRequestId}/reject`
      .setPayload(strict(RejectInput))
      .addSuccess(ChangeRequestDoc)
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict),
    "Reject a change request",
    "By a project admin who is not its author: closes it as `rejected`, with the comment."
  ))
  .add(described(
    HttpApiEndpoint.post("cancel")`/v1/projects/${projectId}/change-requests/${changeRequestId}/cancel`
      .addSuccess(ChangeRequestDoc)
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict),
    "Cancel a change request",
    "By its author or a project admin: closes it as `cancelled`. No body is needed (one sent is ignored)."
  ))
  .add(described(
    HttpApiEndpoint.post("apply")`/v1/projects/${projectId}/change-requests/${changeRequestId}/apply`
      .addSuccess(ChangeRequestDoc)
      .addError(Errors.ForbiddenError)
      .addError(Errors.Conflict),
    "Apply a change request",
    "By its author (while they may still open requests) or an approver (while they may still approve) once approved; approvals count only while their authors may still approve in the project (409 \"needs N approvals; it has M\" otherwise, the approvals still listed): every change in one transaction, through the targeting PUT (its validation, webhook events and change feed; one audit entry per flag with the applier as actor and `changeRequestId`). Then each of its `releasePlans` is started or resumed as the applier (audited with `changeRequestId`; the plan's steps then apply without approvals). 409 `conflict` naming the flags whose version is no longer the change's `baseVersion`, or the plans whose version is no longer the pinned one: nothing is applied and the request stays approved until its author updates it. Two applies at once apply it once. No body is needed (one sent is ignored)."
  ))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, `Change requests: in a protected environment people change targeting, and start release plans, through a request that others approve, then apply (${item}).`) {}
