/**
 * Spans on the evaluation lane, with tracing on (adapters/telemetry/Tracing.ts). The lane answers
 * tens of thousands of requests a second without Effect, so it does not trace every one: a span
 * is started only for a request that carries a W3C `traceparent` (its caller traces it), under
 * that parent and as the sampler decides. A request without one costs a header lookup; with
 * tracing off the serving room does not call in here at all. The change stream (long-lived) and
 * preflights get no span. The node and the web handler trace alike (Embed.ts).
 */
import type { ActiveTracingShape, ServerSpan } from "../../telemetry/ActiveTracing.js"
import type { LaneRoute } from "../shared/EvaluationLaneService.js"
import { fastTemplate } from "./RouteTemplate.js"

/**
 * The method of each traced lane route; its template is the one metrics and request logs use
 * (RouteTemplate.ts, `:param` like the HttpApi's own spans), so a span, a series and a log line
 * name a route alike. `"{method} {template}"` names the span.
 */
const METHODS: Partial<Record<LaneRoute["_tag"], string>> = {
  evaluate: "POST",
  explain: "POST",
  flag: "GET",
  config: "GET",
  ofrepBulk: "POST",
  ofrepFlag: "POST"
}

/**
 * What the handlers call for each lane request when tracing is on, with the request's
 * `traceparent` header: the span to end with the answer's status, if one was started.
 */
export type LaneTracer = (route: LaneRoute, traceparent: string | ReadonlyArray<string> | null | undefined) => ServerSpan | undefined

/** A traced route's span starter, built once per route (its name and attributes are the worker's to keep). */
type Start = (traceparent: string) => ServerSpan | undefined

export const laneTracer = (tracing: ActiveTracingShape): LaneTracer => {
  const starters = new Map<LaneRoute["_tag"], Start | null>()
  const starterOf = (route: LaneRoute): Start | null => {
    let found = starters.get(route._tag)
    if (found === undefined) {
      const method = METHODS[route._tag]
      const template = fastTemplate(route)
      found = method === undefined ? null : tracing.serverSpans(`${method} ${template}`, { "http.request.method": method, "http.route": template })
      starters.set(route._tag, found)
    }
    return found
  }
  return (route, traceparent) => {
    if (typeof traceparent !== "string") return undefined
    const start = starterOf(route)
    return start === null ? undefined : start(traceparent)
  }
}
