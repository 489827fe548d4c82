/** The declarations of scheduled changes: a flag's targeting replaced at a set time, and the project's pending ones. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { CreateScheduleInput, Schedule } from "../../../../src/domain/schedules/Schedule.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described, flagKey, projectId, scheduleId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

const ScheduleDoc = Schedule.annotations({ examples: [Examples.schedule] })

export const PendingSchedulesQuery = strict(Schema.Struct({
  environment: Schema.optional(Schema.String)
}))

export class SchedulesGroup extends HttpApiGroup.make("schedules")
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/flags/${flagKey}/schedules`
      .setPayload(strict(CreateScheduleInput).annotations({ examples: [Examples.createSchedule] }))
      .addSuccess(Created(ScheduleDoc))
      .addError(Errors.Conflict),
    "Schedule a targeting change",
    "At `at` (ISO 8601 with an offset; a time already past applies at once), replaces the flag's configuration in `environment` with `targeting` (the body of PUT .../targeting; its `environment` may be left out), exactly as that PUT would, with its webhook event. The targeting is checked now (400 as the PUT) and again when it runs: if it is no longer valid then (a variation removed meanwhile), the schedule becomes `failed` with the reason and nothing changes. In a protected environment a person's schedule is refused: 409 `change_request_required`."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/flags/${flagKey}/schedules`.addSuccess(dataOf(ScheduleDoc)),
    "List a flag's scheduled changes",
    "Every schedule of the flag in creation order, with its status: `pending`, `applied`, `failed` (with `reason`) or `cancelled`."
  ))
  .add(described(
    HttpApiEndpoint.del("cancel")`/v1/projects/${projectId}/flags/${flagKey}/schedules/${scheduleId}`.addSuccess(HttpApiSchema.NoContent).addError(Errors.Conflict),
    "Cancel a scheduled change",
    "Cancels a pending schedule: it will not run (it stays listed as `cancelled`). 409 when it has already been applied, failed or been cancelled. A key bound to an environment cancels only that environment's schedules (403)."
  ))
  .add(described(
    HttpApiEndpoint.get("listPending")`/v1/projects/${projectId}/schedules`.setUrlParams(PendingSchedulesQuery).addSuccess(dataOf(ScheduleDoc)),
    "List the project's pending scheduled changes",
    "Every pending schedule of every flag of the project (of one environment with `environment=`), earliest `at` first: what will change, when, and which key planned it. Revoking a key cancels its pending schedules."
  ))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "Scheduled changes: a flag's targeting in one environment, replaced at a set time, exactly once.") {}
