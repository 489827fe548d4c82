/** The insights series handler: a call to the `Insights` use case, which decides who may read it. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Insights } from "../../../../src/services/insights/Insights.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const InsightsLive = HttpApiBuilder.group(FlagportApi, "insights", (handlers) =>
  handlers.handle("series", ({ path, urlParams }) => Effect.flatMap(Insights, (insights) => mapped(insights.series(path.projectId, path.flagKey, urlParams))))
)
