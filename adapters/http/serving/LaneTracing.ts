/**
 * Spans on the evaluation lane, with tracing on (adapters/telemetry/Tracing.ts). The lane answers
 * tens of thousands of requests a second without Effect, so it does not trace every one: a span
 * is started only for a request that carries a W3C `traceparent` (its caller traces it), under
 * that parent and as the sampler decides. A request without one costs a header lookup; with
 * tracing off the serving room does not call in here at all. The change stream (long-lived) and
 * preflights get no span.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { ActiveTracingShape } from "../../telemetry/Tracing.js"
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

/** What the node handler calls for each lane request when tracing is on. */
export type LaneTracer = (route: LaneRoute, req: IncomingMessage, res: ServerResponse) => void

export const laneTracer = (tracing: ActiveTracingShape): LaneTracer => (route, req, res) => {
  const traceparent = req.headers.traceparent
  if (typeof traceparent !== "string") return
  const method = METHODS[route._tag]
  if (method === undefined) return
  const template = fastTemplate(route)
  const span = tracing.serverSpan(`${method} ${template}`, traceparent, {
    "http.request.method": method,
    "http.route": template
  })
  if (span !== undefined) res.once("finish", () => span.end(res.statusCode))
}
