/** The declaration of `POST /v1/insights`: an SDK evaluating in process reports what it served. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { InsightsReceipt, InsightsReport } from "../../../../src/domain/insights/Insights.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { EvaluationAuth } from "../Security.js"

export class InsightsReportGroup extends HttpApiGroup.make("insightsReport")
  .add(described(
    HttpApiEndpoint.post("report", "/v1/insights")
      .setPayload(strict(InsightsReport).annotations({ examples: [Examples.insightsReport] }))
      .addSuccess(InsightsReceipt.annotations({ examples: [Examples.insightsReceipt], ...HttpApiSchema.annotations({ status: 202 }) })),
    "Report evaluations made in an SDK",
    "An SDK evaluating in process reports how often it served each variation between `from` and `to`; the counts join the flag's hourly series (in the hour of `to`) and its `lastEvaluatedAt`. Entries naming a flag or variation the environment does not have are ignored and counted in `ignored`. With a global server key, `projectId` is required. A report is refused (400) when `from` is more than 48 hours ago, `to` more than 5 minutes ahead, or the counts claim more than the limits allow (a million evaluations of one flag per second of the window, 10^10 per report, 10^11 per key and hour); 503 while too many counts wait to be written."
  ))
  .middleware(EvaluationAuth)
  .addError(Errors.NotFound)
  .addError(Errors.Unavailable)
  .annotate(OpenApi.Description, "SDK evaluation reports: client or server keys.") {}
