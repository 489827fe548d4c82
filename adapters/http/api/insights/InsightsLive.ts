/** The insights series handler: a key bound to an environment reads only that environment's series. */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Insights } from "../../../../src/services/insights/Insights.js"
import { FlagportApi } from "../Api.js"
import { mapped, mayRead } from "../Calling.js"

export const InsightsLive = HttpApiBuilder.group(FlagportApi, "insights", (handlers) =>
  handlers.handle("series", ({ path, urlParams }) =>
    Effect.zipRight(mayRead(urlParams.environment), Effect.flatMap(Insights, (insights) => mapped(insights.series(path.projectId, path.flagKey, urlParams))))
  )
)
