/**
 * The lane spans under test: a `LaneSpans` exporting to `traces` (a collector's `/v1/traces`) as
 * the service `lane-test`, in JSON unless `options` say otherwise, with one route registered.
 */
import { type LaneSpanOptions, startLaneSpans } from "../../adapters/telemetry/lane/LaneSpans.js"

export const startTestLane = async (traces: string, options: Partial<Omit<LaneSpanOptions, "url">> = {}) => {
  const lane = await startLaneSpans({ url: traces, protocol: "http/json", resource: { "service.name": "lane-test" }, scope: { name: "lane-test" }, ...options })
  const route = lane.route("GET /v1/config", { "http.request.method": "GET", "http.route": "/v1/config" })
  return { lane, route }
}
