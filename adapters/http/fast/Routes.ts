/**
 * The route table of the fast path: the one place that decides which requests the fast routes
 * answer (anything else belongs to the HttpApi app). The serving room asks it once per request
 * and hands the match to the lane, which does not match again.
 *
 * The fast routes are the evaluation side, and the evaluation side is what browsers may call:
 * every fast route carries CORS headers (shared/Cors.ts), and an `OPTIONS` on one of their paths
 * is its preflight. One evaluation-side route is answered by the HttpApi app instead (the SDKs'
 * insights report, a schema-decoded body not worth a hand decoder): `corsOnApi` names it, its
 * preflight is here, and the serving room adds CORS to its answers. Management routes are never
 * here, so they never answer CORS.
 */

import type { OfrepRoute } from "../shared/EvaluationLane.js"

export type FastRoute =
  | { readonly _tag: "evaluate" }
  | { readonly _tag: "explain" }
  | { readonly _tag: "flag"; /** As it stands in the path, still percent-encoded. */ readonly rawFlagKey: string }
  | { readonly _tag: "config" }
  | { readonly _tag: "stream" }
  | { readonly _tag: "preflight"; /** The methods the path answers, for Access-Control-Allow-Methods. */ readonly methods: string }
  | OfrepRoute

const EVALUATE: FastRoute = { _tag: "evaluate" }
const EXPLAIN: FastRoute = { _tag: "explain" }
const CONFIG: FastRoute = { _tag: "config" }
const STREAM: FastRoute = { _tag: "stream" }
const PREFLIGHT_POST: FastRoute = { _tag: "preflight", methods: "POST, OPTIONS" }
const PREFLIGHT_GET: FastRoute = { _tag: "preflight", methods: "GET, OPTIONS" }
const FLAG_EVAL = /^\/v1\/flags\/([^/]+)\/eval$/
const OFREP_BULK_PATH = "/ofrep/v1/evaluate/flags"
const OFREP_BULK: FastRoute = { _tag: "ofrepBulk" }
const OFREP_FLAG = /^\/ofrep\/v1\/evaluate\/flags\/([^/]+)$/
const INSIGHTS_REPORT = "/v1/insights"

/** The fast route a method + path is, if any. */
export const routeOf = (method: string, path: string): FastRoute | undefined => {
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
    const flag = FLAG_EVAL.exec(path)
    return flag === null ? undefined : { _tag: "flag", rawFlagKey: flag[1]! }
  }
  if (method === "OPTIONS") return preflightOf(path)
  return undefined
}

/** The preflight of an evaluation path (the methods it answers), if it is one. */
const preflightOf = (path: string): FastRoute | undefined => {
  if (path === "/v1/evaluate" || path === "/v1/explain" || path === INSIGHTS_REPORT || path === OFREP_BULK_PATH || OFREP_FLAG.test(path)) {
    return PREFLIGHT_POST
  }
  if (path === "/v1/config" || path === "/v1/stream" || FLAG_EVAL.test(path)) return PREFLIGHT_GET
  return undefined
}

/** Whether the route reads a request body (the transports may read it before answering). */
export const readsBody = (route: FastRoute): boolean =>
  route._tag === "evaluate" || route._tag === "explain" || route._tag === "ofrepFlag" || route._tag === "ofrepBulk"

/** Whether a request the HttpApi app answers is on the evaluation side, so its answer carries CORS. */
export const corsOnApi = (method: string, path: string): boolean => method === "POST" && path === INSIGHTS_REPORT
