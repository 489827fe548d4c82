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
import type { FastRoute } from "../fast/Routes.js"

/** The route template of each traced lane route ("{method} {template}" names its span). */
const TEMPLATES: Partial<Record<FastRoute["_tag"], readonly [string, string]>> = {
  evaluate: ["POST", "/v1/evaluate"],
  explain: ["POST", "/v1/explain"],
  flag: ["GET", "/v1/flags/{flagKey}/eval"],
  config: ["GET", "/v1/config"],
  ofrepBulk: ["POST", "/ofrep/v1/evaluate/flags"],
  ofrepFlag: ["POST", "/ofrep/v1/evaluate/flags/{key}"]
}

/** What the node handler calls for each lane request when tracing is on. */
export type LaneTracer = (route: FastRoute, req: IncomingMessage, res: ServerResponse) => void

export const laneTracer = (tracing: ActiveTracingShape): LaneTracer => (route, req, res) => {
  const traceparent = req.headers.traceparent
  if (typeof traceparent !== "string") return
  const template = TEMPLATES[route._tag]
  if (template === undefined) return
  const span = tracing.serverSpan(`${template[0]} ${template[1]}`, traceparent, {
    "http.request.method": template[0],
    "http.route": template[1]
  })
  if (span !== undefined) res.once("finish", () => span.end(res.statusCode))
}
