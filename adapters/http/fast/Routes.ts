/**
 * The route table of the fast path: the one place that decides which requests the fast routes
 * answer (anything else belongs to the HttpApi app). The serving room asks it once per request
 * and hands the match to the lane, which does not match again.
 */

export type FastRoute =
  | { readonly _tag: "evaluate" }
  | { readonly _tag: "flag"; /** As it stands in the path, still percent-encoded. */ readonly rawFlagKey: string }
  | { readonly _tag: "config" }

const EVALUATE: FastRoute = { _tag: "evaluate" }
const CONFIG: FastRoute = { _tag: "config" }
const FLAG_EVAL = /^\/v1\/flags\/([^/]+)\/eval$/

/** The fast route a method + path is, if any. */
export const routeOf = (method: string, path: string): FastRoute | undefined => {
  if (method === "POST") return path === "/v1/evaluate" ? EVALUATE : undefined
  if (method !== "GET") return undefined
  if (path === "/v1/config") return CONFIG
  const flag = FLAG_EVAL.exec(path)
  return flag === null ? undefined : { _tag: "flag", rawFlagKey: flag[1] }
}
