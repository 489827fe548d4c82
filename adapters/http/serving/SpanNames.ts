/**
 * The names of the HttpApi app's request spans, with tracing on: `{method} {route template}`, as
 * OpenTelemetry's HTTP conventions name server spans (`PUT /v1/projects/:projectId/flags/:flagKey/targeting`).
 * The platform names its span before the router has matched (`http.server PUT`), so the templates
 * are matched here, from the API declaration: a request's segments against each template of its
 * method, the template with the most literal segments winning. A path no endpoint declares (the
 * sign-in redirects, /docs, an unknown path) keeps the platform's name. Only called with tracing
 * on, once per management request.
 */
import { HttpApi, type HttpServerRequest } from "@effect/platform"
import { FlagportApi } from "../api/Api.js"

interface Template {
  readonly path: string
  /** Each segment, `undefined` for a parameter. */
  readonly segments: ReadonlyArray<string | undefined>
  readonly literals: number
}

const templatesByMethod = (): ReadonlyMap<string, ReadonlyArray<Template>> => {
  const byMethod = new Map<string, Array<Template>>()
  HttpApi.reflect(FlagportApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const segments = endpoint.path.split("/").map((s) => (s.startsWith(":") ? undefined : s))
      const list = byMethod.get(endpoint.method) ?? []
      list.push({ path: endpoint.path, segments, literals: segments.filter((s) => s !== undefined).length })
      byMethod.set(endpoint.method, list)
    }
  })
  for (const list of byMethod.values()) list.sort((a, b) => b.literals - a.literals)
  return byMethod
}

/** The route template `method` + `path` (no query) is, if the API declares one. */
export const templateMatcher = () => {
  const byMethod = templatesByMethod()
  return (method: string, path: string): string | undefined => {
    const templates = byMethod.get(method === "HEAD" ? "GET" : method)
    if (templates === undefined) return undefined
    const segments = path.split("/")
    for (const template of templates) {
      if (template.segments.length !== segments.length) continue
      let matches = true
      for (let i = 0; i < segments.length; i++) {
        const literal = template.segments[i]
        if (literal === undefined ? segments[i] === "" : literal !== segments[i]) {
          matches = false
          break
        }
      }
      if (matches) return template.path
    }
    return undefined
  }
}

/** The span name generator for the platform's tracer middleware. */
export const spanNameGenerator = (): ((request: HttpServerRequest.HttpServerRequest) => string) => {
  const match = templateMatcher()
  return (request) => {
    const q = request.url.indexOf("?")
    const template = match(request.method, q === -1 ? request.url : request.url.slice(0, q))
    return template === undefined ? `http.server ${request.method}` : `${request.method} ${template}`
  }
}
