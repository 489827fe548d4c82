/** The declaration of the insights series: which variations a flag served, hour by hour. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { InsightsQuery, InsightsSeries } from "../../../../src/domain/insights/Insights.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described, flagKey, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

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
