/**
 * The route template of a request (`/v1/projects/:projectId/flags/:flagKey`), never its raw path:
 * the one name metrics, request logs (and spans) give a request. Raw paths carry ids and keys
 * without bound; a template is one of a fixed set, so a label holding it stays bounded. A path no
 * route knows is `UNMATCHED`, one value however many distinct paths are probed.
 *
 * The set comes from the declarations themselves (the lane's route table, the HttpApi declaration
 * through `HttpApi.reflect`, and the few plain routes beside them), so a new endpoint gets its
 * template without anyone listing it here.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { CALLBACK_PATH, LOGIN_PATH } from "../../oidc/OidcSettings.js"
import { FlagportApi } from "../api/Api.js"
import type { LaneRoute } from "../shared/EvaluationLaneService.js"
import { DOCS_PATH, VIEWER_PATH } from "./Docs.js"

/** Every path no route declares (probes, typos, scanners). */
export const UNMATCHED = "unmatched"

/** The lane's templates by route tag: constants, so the hot path builds no string. */
const FAST_TEMPLATES: Readonly<Record<LaneRoute["_tag"], string>> = {
  evaluate: "/v1/evaluate",
  explain: "/v1/explain",
  flag: "/v1/flags/:flagKey/eval",
  config: "/v1/config",
  keyList: "/v1/config/segments/:segmentKey/:list",
  stream: "/v1/stream",
  preflight: "preflight",
  ofrepBulk: "/ofrep/v1/evaluate/flags",
  ofrepFlag: "/ofrep/v1/evaluate/flags/:key"
}

/** The template of a route the evaluation lane answers. */
export const fastTemplate = (route: LaneRoute): string => FAST_TEMPLATES[route._tag]

/** One declared route: literal segments, or `null` where a parameter matches any one segment. */
interface Compiled {
  readonly method: string
  readonly template: string
  readonly segments: ReadonlyArray<string | null>
}

const compile = (method: string, template: string): Compiled => ({
  method,
  template,
  segments: template.split("/").slice(1).map((s) => (s.startsWith(":") ? null : s))
})

/** Routes served beside the HttpApi declaration (Docs.ts, signin/OidcRoutes.ts, App.ts). */
const PLAIN_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/openapi.json"],
  ["GET", "/metrics"],
  ["GET", DOCS_PATH],
  ["GET", VIEWER_PATH],
  ["GET", LOGIN_PATH],
  ["GET", CALLBACK_PATH]
]

const declared = (): ReadonlyArray<Compiled> => {
  const routes: Array<Compiled> = PLAIN_ROUTES.map(([method, path]) => compile(method, path))
  HttpApi.reflect(FlagportApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      routes.push(compile(endpoint.method, endpoint.path))
    }
  })
  // Literal segments before parameters: `/v1/projects/:id/flags` must not take `/v1/projects/x/flags/y`
  // (lengths differ anyway), and `/a/literal` wins over `/a/:param` of the same length.
  return routes.sort((a, b) => literalCount(b) - literalCount(a))
}

const literalCount = (route: Compiled): number => route.segments.filter((s) => s !== null).length

/** Routes by method and segment count: a request is compared with a handful of candidates only. */
const index = (routes: ReadonlyArray<Compiled>): ReadonlyMap<string, ReadonlyArray<Compiled>> => {
  const byKey = new Map<string, Array<Compiled>>()
  for (const route of routes) {
    const key = `${route.method} ${route.segments.length}`
    const list = byKey.get(key)
    if (list === undefined) byKey.set(key, [route])
    else list.push(route)
  }
  return byKey
}

let table: ReadonlyMap<string, ReadonlyArray<Compiled>> | undefined

const matches = (route: Compiled, parts: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < parts.length; i++) {
    const literal = route.segments[i]
    if (literal !== null && literal !== parts[i]) return false
    if (literal === null && parts[i] === "") return false
  }
  return true
}

/**
 * The template of a request the HttpApi app (or the dashboard) answers, from its method and path
 * (prefix stripped, no query). HEAD is matched as GET, as the server answers it.
 */
export const apiTemplate = (method: string, path: string): string => {
  if (path === "/ui" || path.startsWith("/ui/")) return "/ui/*"
  table ??= index(declared())
  const parts = path.split("/").slice(1)
  const candidates = table.get(`${method === "HEAD" ? "GET" : method} ${parts.length}`)
  if (candidates === undefined) return UNMATCHED
  for (const route of candidates) if (matches(route, parts)) return route.template
  return UNMATCHED
}
