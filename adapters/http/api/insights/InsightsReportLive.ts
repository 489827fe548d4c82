/** POST /v1/insights: the SDK's counts, with the key that sent them (the use case checks its scope as an evaluation's). */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Insights } from "../../../../src/services/insights/Insights.js"
import { FlagportApi } from "../Api.js"
import { asEnvelopes } from "../Calling.js"
import { EvaluationPrincipal } from "../Security.js"

export const InsightsReportLive = HttpApiBuilder.group(FlagportApi, "insightsReport", (handlers) =>
  handlers.handle("report", ({ payload }) =>
    Effect.flatMap(EvaluationPrincipal, (principal) => Effect.flatMap(Insights, (insights) => asEnvelopes(insights.report(principal, payload))))))
