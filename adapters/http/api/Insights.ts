/** The declarations of evaluation insights: the series per flag and the SDKs' reports. */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { InsightsQuery, InsightsReceipt, InsightsReport, InsightsSeries } from "../../../src/domain/insights/Insights.js"
import { strict } from "../shared/EvaluationRequests.js"
import * as Errors from "../shared/Errors.js"
import { described, flagKey, projectId } from "./Declaring.js"
import * as Examples from "./Examples.js"
import { EvaluationAuth, ManagementAuth } from "./Security.js"

export class InsightsGroup extends HttpApiGroup.make("insights")
  .add(described(
    HttpApiEndpoint.get("series")`/v1/projects/${projectId}/flags/${flagKey}/insights`
      .setUrlParams(strict(InsightsQuery))
      .addSuccess(InsightsSeries.annotations({ examples: [Examples.insightsSeries] })),
    "Evaluations of a flag per hour",
    "How often each variation of the flag was served in one environment, one point per hour from `from` to `to` (ISO 8601 instants; default: the last 24 hours; at most 31 days), counting server-side evaluations and SDK reports. Counts reach storage at most 10 s after the evaluation."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Evaluation insights: which variations flags serve, hour by hour.") {}

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
