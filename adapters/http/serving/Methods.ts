/**
 * 405 for a known path asked with a method it does not answer (`DELETE /v1/evaluate`), with the
 * `Allow` header RFC 9110 requires, instead of the 404 "No route" of an unknown path.
 *
 * The methods come from the routes as declared: every route, lane or HttpApi, is an endpoint of
 * the HttpApi declaration (api/Api.ts), so reflecting it gives each path's methods; the lane's
 * route table (lane/Routes.ts) adds the CORS preflight (`OPTIONS`) of the evaluation paths, and
 * App.ts and Docs.ts the document routes, signin/OidcRoutes.ts single sign-on's two. The router
 * answers `HEAD` wherever it answers `GET`. Nothing here can disagree with the routing, since it
 * reads the same tables.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { FlagportApi } from "../api/Api.js"
import { routeOf } from "../lane/Routes.js"
import type { LaneResponse } from "../shared/EvaluationLaneService.js"
import * as Errors from "../shared/Errors.js"
import { OPENAPI_PATH } from "./App.js"
import { DOCS_PATH, VIEWER_PATH } from "./Docs.js"
import { CALLBACK_PATH, LOGIN_PATH } from "../../oidc/OidcSettings.js"

interface PathMethods {
  readonly pattern: RegExp
  readonly methods: ReadonlyArray<string>
}

/** `/v1/projects/:projectId/flags` -> a pattern matching one path segment per parameter. */
const patternOf = (path: string): RegExp =>
  new RegExp(`^${path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`)

const declared = (): ReadonlyArray<PathMethods> => {
  const byPath = new Map<string, Set<string>>()
  const add = (path: string, method: string) => {
    const methods = byPath.get(path) ?? new Set<string>()
    methods.add(method)
    if (method === "GET") methods.add("HEAD")
    byPath.set(path, methods)
  }
  HttpApi.reflect(FlagportApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => add(endpoint.path, endpoint.method)
  })
  add(OPENAPI_PATH, "GET")
  add(DOCS_PATH, "GET")
  add(VIEWER_PATH, "GET")
  add(LOGIN_PATH, "GET")
  add(CALLBACK_PATH, "GET")
  return [...byPath].map(([path, methods]) => ({ pattern: patternOf(path), methods: [...methods] }))
}

const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

let table: ReadonlyArray<PathMethods> | undefined

/** The methods `path` answers (in a stable order), or an empty array when no route has this path. */
export const methodsOf = (path: string): ReadonlyArray<string> => {
  table ??= declared()
  const methods = new Set<string>()
  for (const entry of table) if (entry.pattern.test(path)) for (const m of entry.methods) methods.add(m)
  if (methods.size > 0 && routeOf("OPTIONS", path) !== undefined) methods.add("OPTIONS")
  return ORDER.filter((m) => methods.has(m))
}

/**
 * The 405 for `method` on `path`, or undefined when the request is for the router to answer (the
 * method is one the path takes, or no route has this path: the router's 404).
 */
export const methodNotAllowed = (method: string, path: string): LaneResponse | undefined => {
  const methods = methodsOf(path)
  if (methods.length === 0 || methods.includes(method)) return undefined
  const allow = methods.join(", ")
  return {
    status: 405,
    headers: { "content-type": "application/json", allow },
    body: JSON.stringify(Errors.envelopeOf(Errors.methodNotAllowed(method, path, allow)))
  }
}
