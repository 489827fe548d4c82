/**
 * The web (fetch API) transport of the embeddable handlers (Embed.ts): a web `Request` answered by
 * the evaluation lane when it has the route, else by the HttpApi app with the prefix stripped, the
 * dashboard's pages first when it is served. The node transport stays in Embed.ts.
 */
import type { EvaluationLaneShape } from "../shared/EvaluationLaneService.js"
import { corsOnApi, routeOf } from "../lane/Routes.js"
import { isKeyListUpload } from "../shared/Body.js"
import { withSecurityHeaders } from "../shared/SecurityHeaders.js"
import { cappedWebRequest, readWebBody } from "./BodyReader.js"
import type { Dashboard } from "./Dashboard.js"
import type { LaneTracer } from "./LaneTracing.js"
import { toWebResponse } from "./LaneResponses.js"
import { methodNotAllowed } from "./Methods.js"
import type { RequestObserver } from "./Observe.js"
import { apiTemplate, fastTemplate } from "./RouteTemplate.js"
import type { SignInFrontShape } from "./SignInFront.js"

/** What a web host knows of the client that a web Request does not carry. */
export interface WebClient {
  readonly remoteAddress?: string | undefined
}

/** Strips the prefix when the URL carries it; a URL without it is taken as already stripped. */
export const stripPrefix = (prefix: string, url: string): string => {
  if (prefix === "" || !url.startsWith(prefix)) return url
  const rest = url.slice(prefix.length)
  if (rest === "") return "/"
  if (rest.startsWith("/")) return rest
  if (rest.startsWith("?")) return `/${rest}`
  return url
}

/**
 * The web handler: lane first, then the HttpApi app (with the prefix stripped from the URL).
 * `traceLane` (tracing on only) as in the node handler.
 */
export const webHandler = (
  prefix: string,
  lane: EvaluationLaneShape,
  app: (request: Request) => Promise<Response>,
  observer?: RequestObserver,
  traceLane?: LaneTracer,
  signInFront?: SignInFrontShape
) => {
  const answer = webAnswer(prefix, lane, app, traceLane, signInFront)
  if (observer === undefined) return answer
  return async (request: Request, client?: WebClient): Promise<Response> => {
    const started = performance.now()
    const response = await answer(request, client)
    const path = stripPrefix(prefix, new URL(request.url).pathname)
    const route = routeOf(request.method, path)
    const template = route === undefined ? apiTemplate(request.method, path) : fastTemplate(route)
    observer.done(request.method, template, response.status, started, { header: (name) => request.headers.get(name) ?? undefined })
    return response
  }
}

const webAnswer = (
  prefix: string,
  lane: EvaluationLaneShape,
  app: (request: Request) => Promise<Response>,
  traceLane: LaneTracer | undefined,
  signInFront: SignInFrontShape | undefined
) =>
async (request: Request, client?: WebClient): Promise<Response> => {
  const url = new URL(request.url)
  const path = stripPrefix(prefix, url.pathname)
  const route = routeOf(request.method, path)
  const span = route === undefined || traceLane === undefined ? undefined : traceLane(route, request.headers.get("traceparent"))
  const pending = route === undefined
    ? undefined
    : lane.answer(route, {
      query: url.search === "" ? "" : url.search.slice(1),
      // A web Request carries its host in the URL (fetch never sets Host), e.g. for OFREP's stream URLs.
      header: (name) => request.headers.get(name) ?? (name === "host" ? url.host : undefined),
      remoteAddress: client?.remoteAddress,
      body: () => readWebBody(request)
    })
  if (pending !== undefined) {
    const response = pending instanceof Promise ? await pending.catch((error: unknown) => lane.toResponse(error)) : pending
    span?.end(response.status)
    return toWebResponse(response)
  }
  const refused = signInFront?.refusal(request.method, path, client?.remoteAddress, request.headers.get("x-forwarded-for") ?? undefined, request.headers.get("cookie") ?? undefined)
  if (refused !== undefined) return toWebResponse(refused)
  const notAllowed = methodNotAllowed(request.method, path)
  if (notAllowed !== undefined) return toWebResponse(notAllowed)
  url.pathname = path
  const answer = withSecurityHeaders(await app(cappedWebRequest(url, request, !isKeyListUpload(request.method, path))))
  if (!corsOnApi(request.method, path)) return answer
  const headers = new Headers(answer.headers)
  for (const [name, value] of Object.entries(lane.corsHeaders(request.headers.get("origin") ?? undefined))) {
    if (name === "vary") headers.append(name, value)
    else headers.set(name, value)
  }
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers })
}

/** The web handler with the dashboard's GET and HEAD routes answered first. */
export const webWithDashboard = (prefix: string, dashboard: Dashboard, next: (request: Request, client?: WebClient) => Promise<Response>) =>
async (request: Request, client?: WebClient): Promise<Response> => {
  const url = new URL(request.url)
  const answer = dashboard.answer(request.method, stripPrefix(prefix, url.pathname), request.headers.get("if-none-match") ?? undefined)
  return answer === undefined ? next(request, client) : toWebResponse(await answer)
}
