/** The evaluation handlers: the caller's principal (EvaluationAuth) handed to the lane's own methods. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { FlagportApi } from "../Api.js"
import { EvaluationPrincipal } from "../Security.js"
import { viaLane } from "./ViaLane.js"

export const EvaluationLive = HttpApiBuilder.group(FlagportApi, "evaluation", (handlers) =>
  handlers
    .handle("evaluate", ({ payload }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) => viaLane((lane) => lane.evaluate(principal, payload)))
    )
    .handle("flag", ({ path, urlParams }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) => viaLane((lane) => lane.flag(principal, path.flagKey, urlParams)))
    )
    .handle("explain", ({ payload }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) => viaLane((lane) => lane.explain(principal, payload)))
    )
    .handle("keyList", ({ path, urlParams }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) => viaLane((lane) => lane.keyList(principal, path.segmentKey, path.list, urlParams)))
    )
    .handle("config", ({ headers, request, urlParams }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) =>
        viaLane((lane) => lane.config(principal, urlParams, headers["if-none-match"], request.headers["accept-encoding"]))
      )
    )
)
