/**
 * The names of the HttpApi app's request spans, with tracing on: `{method} {route template}`, as
 * OpenTelemetry's HTTP conventions name server spans (`PUT /v1/projects/:projectId/flags/:flagKey/targeting`).
 * The platform names its span before the router has matched (`http.server PUT`), so the template
 * comes from RouteTemplate.ts (the one the metrics and the request log use); a path no route
 * declares keeps the platform's name. Only called with tracing on, once per request of the app.
 */
import type { HttpServerRequest } from "@effect/platform"
import { apiTemplate, UNMATCHED } from "./RouteTemplate.js"

/** The span name of a request to the HttpApi app (`url` with or without its query). */
export const spanNameOf = (method: string, url: string): string => {
  const q = url.indexOf("?")
  const template = apiTemplate(method, q === -1 ? url : url.slice(0, q))
  return template === UNMATCHED ? `http.server ${method}` : `${method} ${template}`
}

/** The span name generator for the platform's tracer middleware. */
export const spanNameGenerator = () => (request: HttpServerRequest.HttpServerRequest): string => spanNameOf(request.method, request.url)
