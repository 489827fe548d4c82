/**
 * The route table of the evaluation lane: the one place that decides which requests the lane routes
 * answer (anything else belongs to the HttpApi app). The serving room asks it once per request
 * and hands the match to the lane, which does not match again.
 *
 * The lane routes are the evaluation side, and the evaluation side is what browsers may call:
 * every lane route carries CORS headers (shared/Cors.ts), and an `OPTIONS` on one of their paths
 * is its preflight. One evaluation-side route is answered by the HttpApi app instead (the SDKs'
 * insights report, a schema-decoded body not worth a hand decoder): `corsOnApi` names it, its
 * preflight is here, and the serving room adds CORS to its answers. Management routes are never
 * here, so they never answer CORS.
 */

import type { LaneRoute } from "../shared/EvaluationLaneService.js"

const EVALUATE: LaneRoute = { _tag: "evaluate" }
const EXPLAIN: LaneRoute = { _tag: "explain" }
const CONFIG: LaneRoute = { _tag: "config" }
const STREAM: LaneRoute = { _tag: "stream" }
const PREFLIGHT_POST: LaneRoute = { _tag: "preflight", methods: "POST, OPTIONS" }
const PREFLIGHT_GET: LaneRoute = { _tag: "preflight", methods: "GET, OPTIONS" }
const FLAG_EVAL = /^\/v1\/flags\/([^/]+)\/eval$/
const KEY_LIST = /^\/v1\/config\/segments\/([^/]+)\/(included|excluded)$/
const OFREP_BULK_PATH = "/ofrep/v1/evaluate/flags"
const OFREP_BULK: LaneRoute = { _tag: "ofrepBulk" }
const OFREP_FLAG = /^\/ofrep\/v1\/evaluate\/flags\/([^/]+)$/
const INSIGHTS_REPORT = "/v1/insights"

/** The lane route a method + path is, if any. */
export const routeOf = (method: string, path: string): LaneRoute | undefined => {
  if (method === "POST") {
    if (path === "/v1/evaluate") return EVALUATE
    if (path === "/v1/explain") return EXPLAIN
    if (path === OFREP_BULK_PATH) return OFREP_BULK
    const flag = OFREP_FLAG.exec(path)
    return flag === null ? undefined : { _tag: "ofrepFlag", rawFlagKey: flag[1]! }
  }
  if (method === "GET") {
    if (path === "/v1/config") return CONFIG
    if (path === "/v1/stream") return STREAM
    const keyList = KEY_LIST.exec(path)
    if (keyList !== null) return { _tag: "keyList", rawSegmentKey: keyList[1]!, list: keyList[2] as "included" | "excluded" }
    const flag = FLAG_EVAL.exec(path)
    return flag === null ? undefined : { _tag: "flag", rawFlagKey: flag[1]! }
  }
  if (method === "OPTIONS") return preflightOf(path)
  return undefined
}

/** The preflight of an evaluation path (the methods it answers), if it is one. */
const preflightOf = (path: string): LaneRoute | undefined => {
  if (path === "/v1/evaluate" || path === "/v1/explain" || path === INSIGHTS_REPORT || path === OFREP_BULK_PATH || OFREP_FLAG.test(path)) {
    return PREFLIGHT_POST
  }
  if (path === "/v1/config" || path === "/v1/stream" || FLAG_EVAL.test(path) || KEY_LIST.test(path)) return PREFLIGHT_GET
  return undefined
}

/** Whether the route reads a request body (the transports may read it before answering). */
export const readsBody = (route: LaneRoute): boolean =>
  route._tag === "evaluate" || route._tag === "explain" || route._tag === "ofrepFlag" || route._tag === "ofrepBulk"

/** Whether a request the HttpApi app answers is on the evaluation side, so its answer carries CORS. */
export const corsOnApi = (method: string, path: string): boolean => method === "POST" && path === INSIGHTS_REPORT
