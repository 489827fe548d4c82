/** POST /v1/insights: the scope as for an evaluation (the same policy), then the SDK's counts. */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Policy from "../../../../src/domain/auth/Policy.js"
import { Insights } from "../../../../src/services/insights/Insights.js"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"
import { asEnvelopes } from "../Calling.js"
import { EvaluationPrincipal } from "../Security.js"

export const InsightsReportLive = HttpApiBuilder.group(FlagportApi, "insightsReport", (handlers) =>
  handlers.handle("report", ({ payload }) =>
    Effect.gen(function* () {
      const principal = yield* EvaluationPrincipal
      const scope = Policy.authorizeEvaluation(principal, payload.projectId, payload.environment)
      if (Either.isLeft(scope)) return yield* Effect.fail(Errors.fromDomain(scope.left))
      const insights = yield* Insights
      return yield* asEnvelopes(insights.report({ ...scope.right, keyId: principal.keyId }, payload))
    })
  )
)
