/**
 * Embedding: the whole Flagport API under a path prefix of the host's choice, as
 *
 * - a node `(req, res)` handler (plain `node:http`, Express `app.use(prefix, handler)`, ...),
 * - a web `Request => Promise<Response>` handler (fetch-style hosts),
 * - plus `dispose()` (closes the database and stops background work),
 *
 * and `layer` (re-exported from App.ts) for hosts written with Effect, with `hostMiddleware`
 * (HostMiddleware.ts) for what the handlers add in front of it.
 *
 * Both handlers put the evaluation lane (lane/EvaluationLane.ts) in front of the HttpApi app: the route
 * table (lane/Routes.ts) picks the evaluation routes (and the change stream), answered by plain functions;
 * everything else goes to the HttpApi app.
 * The OpenAPI document reflects the prefix (its `servers` entry).
 *
 * ```ts
 * const flagport = await makeHandlers({ prefix: "/flags", services: myServicesLayer })
 * http.createServer((req, res) => req.url?.startsWith("/flags") ? flagport.node(req, res) : host(req, res))
 * // ...
 * await flagport.dispose()
 * ```
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import type * as OpenApi from "@effect/platform/OpenApi"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Context from "effect/Context"
import * as Exit from "effect/Exit"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Runtime from "effect/Runtime"
import * as Scope from "effect/Scope"
import * as Option from "effect/Option"
import { EvaluationLaneService, type EvaluationLaneShape, type LaneRoute } from "../shared/EvaluationLaneService.js"
import { corsOnApi, readsBody, routeOf } from "../lane/Routes.js"
import { checkBodyHeaders, isKeyListUpload } from "../shared/Body.js"
import { setSecurityHeaders, withSecurityHeaders } from "../shared/SecurityHeaders.js"
import * as App from "./App.js"
import { cappedWebRequest, collectNodeBody, readWebBody } from "./BodyReader.js"
import { type Dashboard, type DashboardOptions, makeDashboard } from "./Dashboard.js"
import { laneTracer, type LaneTracer } from "./LaneTracing.js"
import { isChunked, NodeLaneRequest } from "./NodeLaneRequest.js"
import { ActiveTracing } from "../../telemetry/ActiveTracing.js"
import { requestTracing, tracingOf } from "./RequestTracing.js"
import { toWebResponse, writeNode } from "./LaneResponses.js"
import { methodNotAllowed } from "./Methods.js"
import { HostBodyUnusable, hostReadBody, webRequestWithBody, writeHostBodyUnusable, writeWebResponse } from "./HostReadBody.js"
import { answerMetrics, METRICS_PATH } from "../../metrics/MetricsEndpoint.js"
import type { ServerMetrics } from "../../metrics/ServerMetrics.js"
import type * as Redacted from "effect/Redacted"
import { metricsSources, StorageMetricsSources, storageMetricsSources } from "./MetricsSources.js"
import { RequestObserver } from "./Observe.js"
import { specOf } from "./OpenApiSpec.js"
import { stripPrefix, type WebClient, webHandler, webWithDashboard } from "./WebHandler.js"
export { stripPrefix, type WebClient, webHandler } from "./WebHandler.js"
import { apiTemplate, fastTemplate } from "./RouteTemplate.js"
import { SignInFront, type SignInFrontShape } from "./SignInFront.js"

export { layer, servicesFrom, type HttpOptions, type HttpServices } from "./App.js"
export { answerClientError } from "./ClientError.js"
export { hostMiddleware } from "./HostMiddleware.js"
export { ServerMetrics } from "../../metrics/ServerMetrics.js"
/**
 * Traces from the OTEL_* variables (docs/operations/operating.md#traces-opentelemetry), for a host to put
 * under its services: `makeHandlers({ services: myServices.pipe(Layer.provideMerge(tracingLayerConfig)) })`.
 */
export { layerConfig as tracingLayerConfig } from "../../telemetry/Tracing.js"

export interface EmbedOptions<E> extends App.HttpOptions {
  /**
   * The services the HTTP adapter calls (`HttpServices`: the use cases, webhooks, insights and
   * the change feed), e.g. `servicesLayer(fromDatabaseUrl(url))` or the memory services.
   * Built once; `dispose()` releases it (closing the database).
   */
  readonly services: Layer.Layer<App.HttpServices, E>
  /** The dashboard at `<prefix>/ui/` (Dashboard.ts); `false` leaves it out. */
  readonly dashboard?: DashboardOptions | false
  /**
   * Prometheus metrics (adapters/metrics, docs/operations/operating.md): the handlers fill `registry`;
   * `serve` (default true) answers `GET <prefix>/metrics` with it, behind `token`, which it then
   * requires (the labels name every project and environment); `serve: false` leaves /metrics to the host.
   * Absent: nothing is measured.
   */
  readonly metrics?: {
    readonly registry: ServerMetrics
    readonly serve?: boolean
    readonly token?: Option.Option<Redacted.Redacted<string>>
  }
  /** Where one JSON line per request goes (RequestLog.ts); absent: no request lines. */
  readonly requestLog?: (line: string) => void
  /**
   * Resolve as soon as the evaluation lane can answer, building the HttpApi app (every other route)
   * behind it; a request for one of its routes meanwhile waits for it. `ready` settles when it is
   * built. Default false: `makeHandlers` resolves once everything is built.
   */
  readonly apiInBackground?: boolean
}

export interface FlagportHandlers {
  /** The normalized prefix ("" for the root). */
  readonly prefix: string
  /**
   * Node handler; accepts URLs with the prefix, or already stripped of it (Express `app.use(prefix, ...)`).
   * `body`: the body when the host's framework already read it, as it parsed it (Fastify:
   * `flagport.node(request.raw, reply.raw, request.body)`); Express's `req.body` is found without it.
   * A function there (Express's `next`) is ignored.
   */
  readonly node: (req: IncomingMessage, res: ServerResponse, body?: unknown) => void
  /**
   * Web handler; the request URL carries the prefix. `client.remoteAddress`: the client's address,
   * which a web Request does not carry (Hono on Node: `c.env.incoming.socket.remoteAddress`); without
   * it the per-address stream bound (FLAGPORT_STREAMS_PER_ADDRESS) cannot apply.
   */
  readonly web: (request: Request, client?: WebClient) => Promise<Response>
  /** The OpenAPI document, as served at `${prefix}/openapi.json`. */
  readonly openApi: () => OpenApi.OpenAPISpec
  /**
   * Settles once the HttpApi app (every route but the evaluation lane's) is built: at once unless
   * `apiInBackground`; rejects when it cannot be built (its requests then answer 500).
   */
  readonly ready: Promise<void>
  /**
   * Ends every open change stream (`GET /v1/stream`) and refuses new ones. Call it first when
   * shutting down (before waiting for in-flight requests: a stream never finishes on its own);
   * `dispose` does it too.
   */
  readonly closeStreams: () => void
  /** Ends the streams, stops background work and closes the database. */
  readonly dispose: () => Promise<void>
}

/** A lane answer written to `res` (at once when the lane answered synchronously), and reported when observed. */
const answerNode = (lane: EvaluationLaneShape, route: LaneRoute, request: NodeLaneRequest, res: ServerResponse, observer: RequestObserver | undefined, method: string): void => {
  const response = lane.answer(route, request)
  if (response instanceof Promise) {
    response.then(
      (r) => {
        writeNode(res, r)
        request.span?.end(r.status)
        observer?.done(method, fastTemplate(route), r.status, request.started, request)
      },
      (error: unknown) => {
        const r = lane.toResponse(error)
        writeNode(res, r)
        request.span?.end(r.status)
        observer?.done(method, fastTemplate(route), r.status, request.started, request)
      }
    )
  } else {
    writeNode(res, response)
    request.span?.end(response.status)
    observer?.done(method, fastTemplate(route), response.status, request.started, request)
  }
}

/** What the node handler adds when asked: observation (metrics, request log), the /metrics route, lane spans. */
export interface NodeExtras {
  readonly observer?: RequestObserver | undefined
  readonly metrics?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  /** Spans for lane requests (LaneTracing.ts), when tracing is on. */
  readonly traceLane?: LaneTracer | undefined
  /** Sign-ins and setups the guard refuses now, answered before the app (SignInFront.ts). */
  readonly signInFront?: SignInFrontShape | undefined
}

/**
 * The node handler: lane first, then the HttpApi app (with the prefix already stripped). A
 * request whose body the host already read (a body parser before the mount) goes to the web
 * form of the app with that body, since the node form would wait for a stream that has ended.
 * `traceLane` (tracing on only, LaneTracing.ts) sees each lane request before it is answered.
 */
export const nodeHandler = (
  prefix: string,
  lane: EvaluationLaneShape,
  app: (req: IncomingMessage, res: ServerResponse) => void,
  webApp: (request: Request) => Promise<Response>,
  extras: NodeExtras = {}
) =>
(req: IncomingMessage, res: ServerResponse, body?: unknown): void => {
  const observer = extras.observer
  const started = observer === undefined ? 0 : performance.now()
  const url = prefix === "" ? (req.url ?? "/") : stripPrefix(prefix, req.url ?? "/")
  if (url !== req.url) req.url = url
  const hostBody = hostReadBody(req, body)
  if (hostBody instanceof HostBodyUnusable) {
    setSecurityHeaders(res)
    return writeHostBodyUnusable(res)
  }
  const q = url.indexOf("?")
  const path = q === -1 ? url : url.slice(0, q)
  const method = req.method ?? "GET"
  const route = routeOf(method, path)
  if (route === undefined) {
    observer?.watch(req, res, path, started)
    const forwardedFor = req.headers["x-forwarded-for"] // node joins repeated ones into one string
    const refused = extras.signInFront?.refusal(method, path, req.socket.remoteAddress, typeof forwardedFor === "string" ? forwardedFor : undefined, req.headers.cookie)
    if (refused !== undefined) return writeNode(res, refused)
    if (extras.metrics !== undefined && path === METRICS_PATH) {
      setSecurityHeaders(res)
      return extras.metrics(req, res)
    }
    const notAllowed = methodNotAllowed(method, path)
    if (notAllowed !== undefined) return writeNode(res, notAllowed)
    // Kept by node when the app writes its head (its own headers come first, Vary aside).
    if (corsOnApi(method, path)) for (const [name, value] of Object.entries(lane.corsHeaders(req.headers.origin))) res.setHeader(name, value)
    // The HttpApi app writes its own headers; these merge with them.
    setSecurityHeaders(res)
    const toApp = (body: Uint8Array) =>
      webApp(webRequestWithBody(req, url, body)).then(
        (r) => writeWebResponse(res, r),
        (error: unknown) => writeNode(res, lane.toResponse(error))
      )
    if (hostBody !== undefined) return void toApp(hostBody)
    // A chunked body (no Content-Length) is read here, capped: the node app would stop reading it
    // at the cap by destroying the socket, so the client got a reset instead of the 413.
    if (isChunked(req) && !isKeyListUpload(method, path)) return collectNodeBody(req, (body) => void toApp(body), (error) => writeNode(res, lane.toResponse(error)))
    return app(req, res)
  }
  const request = new NodeLaneRequest(req, q === -1 ? "" : url.slice(q + 1), hostBody)
  request.started = started
  // Ended where the answer is written (answerNode): no "finish" listener per request.
  if (extras.traceLane !== undefined) request.span = extras.traceLane(route, req.headers.traceparent)
  if (hostBody === undefined && readsBody(route) && checkBodyHeaders((name) => request.header(name)) === undefined) {
    // The body first (the lane still checks the key and the body's headers before using it), so
    // that with warm caches the whole answer is written in the turn the body ends. A body its
    // headers refuse is not read: the lane answers at once, as it would have.
    collectNodeBody(
      req,
      (bytes) => {
        request.collected = { bytes }
        answerNode(lane, route, request, res, observer, method)
      },
      (error) => {
        request.collected = { error }
        answerNode(lane, route, request, res, observer, method)
      }
    )
    return
  }
  answerNode(lane, route, request, res, observer, method)
}

/** The node handler with the dashboard's GET and HEAD routes answered first. */
const nodeWithDashboard = (
  prefix: string,
  dashboard: Dashboard,
  next: (req: IncomingMessage, res: ServerResponse, body?: unknown) => void,
  observer: RequestObserver | undefined
) =>
(req: IncomingMessage, res: ServerResponse, body?: unknown): void => {
  const path = stripPrefix(prefix, req.url ?? "/")
  const answer = dashboard.answer(req.method ?? "GET", path, req.headers["if-none-match"])
  if (answer === undefined) return next(req, res, body)
  const q = path.indexOf("?")
  observer?.watch(req, res, q === -1 ? path : path.slice(0, q), performance.now())
  void answer.then((r) => writeNode(res, r))
}

/** The HttpApi app as the two transports run it. */
interface ApiApp {
  readonly node: (req: IncomingMessage, res: ServerResponse) => void
  readonly web: (request: Request) => Promise<Response>
  readonly dispose: () => Promise<void>
}

/**
 * The HttpApi app (App.apiLayer), built inside the shared runtime (its services, and its fiber
 * settings: log level and format, the tracer switch) into a scope of its own that `dispose` closes
 * (before the shared runtime). The app runs with the shared runtime's settings and both contexts.
 */
const buildApi = async (shared: ManagedRuntime.ManagedRuntime<any, unknown>, options: App.HttpOptions): Promise<ApiApp> => {
  const scope = await shared.runPromise(Scope.make())
  const close = () => shared.runPromise(Scope.close(scope, Exit.void))
  try {
    const base = await shared.runtime()
    const built = await shared.runPromise(Layer.buildWithScope(App.apiLayer(options), scope))
    const runtime = Runtime.make({ context: Context.merge(base.context, built), fiberRefs: base.fiberRefs, runtimeFlags: base.runtimeFlags })
    const app = await Runtime.runPromise(runtime)(HttpApiBuilder.httpApp as Effect.Effect<HttpApp.Default, never, any>)
    const node = await Runtime.runPromise(runtime)(NodeHttpServer.makeHandler(app))
    const web = HttpApp.toWebHandlerRuntime(runtime)(app)
    return { node, web, dispose: close }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * Builds the API over `services` and returns the node and web handlers. Resolves once the
 * services are up (migrations are the storage layer's business) and, unless `apiInBackground`,
 * the HttpApi app is built.
 */
export const makeHandlers = async <E>(options: EmbedOptions<E>): Promise<FlagportHandlers> => {
  const prefix = App.normalizePrefix(options.prefix)
  const registry = options.metrics?.registry
  // On the host's (the API's) port, /metrics would name every project and environment to anyone.
  if (registry !== undefined && options.metrics?.serve !== false && Option.isNone(options.metrics?.token ?? Option.none())) {
    throw new Error("metrics: serving /metrics on the API's port needs a token (metrics.token), or serve: false to serve registry.scrape() yourself")
  }
  const appOptions = registry === undefined ? options : { ...options, lane: { ...options.lane, evaluationMetrics: registry.evaluations } }
  // What the lane needs, first; the HttpApi app (handlers of every other route, its schemas and
  // middlewares: most of a start's work) over it, in a runtime of its own (buildApi).
  const runtime = ManagedRuntime.make(
    // The services stay in its context: the HttpApi app is built over them (buildApi).
    Layer.mergeAll(App.sharedLayer(appOptions), NodeHttpServer.layerContext, requestTracing, tracingOf, storageMetricsSources).pipe(Layer.provideMerge(options.services))
  )
  let api: Promise<ApiApp> | undefined
  try {
    const { lane, tracing, signInFront } = await runtime.runPromise(
      Effect.gen(function* () {
        const lane = yield* EvaluationLaneService
        const tracing = yield* Effect.serviceOption(ActiveTracing)
        const signInFront = yield* SignInFront
        return { lane, tracing, signInFront }
      })
    )
    api = buildApi(runtime, appOptions)
    // A failure is the caller's (through `ready`, or thrown here); requests meanwhile answer it as a 500.
    api.catch(() => undefined)
    let built: ApiApp | undefined
    void api.then((app) => (built = app), () => undefined)
    const ready = api.then(() => undefined)
    if (options.apiInBackground !== true) await ready
    const apiNode = (req: IncomingMessage, res: ServerResponse) => {
      if (built !== undefined) return built.node(req, res)
      api!.then((app) => app.node(req, res), (error: unknown) => writeNode(res, lane.toResponse(error)))
    }
    const apiWeb = (request: Request): Promise<Response> => (built !== undefined ? built.web(request) : api!.then((app) => app.web(request)))
    const observer = registry === undefined && options.requestLog === undefined
      ? undefined
      : new RequestObserver(registry?.requests, options.requestLog)
    if (registry !== undefined) {
      const storage = await runtime.runPromise(StorageMetricsSources)
      registry.connect(
        metricsSources(storage, () => lane.openStreams, (effect) => runtime.runPromise(effect), Option.map(tracing, (t) => t.laneSpansDropped))
      )
    }
    const metricsRoute = registry === undefined || options.metrics?.serve === false
      ? undefined
      : answerMetrics(registry, options.metrics?.token ?? Option.none())
    const traceLane = Option.isSome(tracing) ? laneTracer(tracing.value) : undefined
    const node = nodeHandler(prefix, lane, apiNode, apiWeb, {
      observer,
      metrics: metricsRoute,
      traceLane,
      signInFront
    })
    const web = webHandler(prefix, lane, apiWeb, observer, traceLane, signInFront)
    const dashboard = options.dashboard === false ? undefined : makeDashboard(prefix, options.dashboard)
    // The document served at openapi.json, made on first use (OpenApiSpec.ts).
    const declared = App.apiFor(prefix)
    let disposing: Promise<void> | undefined
    return {
      prefix,
      node: dashboard === undefined ? node : nodeWithDashboard(prefix, dashboard, node, observer),
      web: dashboard === undefined ? web : webWithDashboard(prefix, dashboard, web),
      openApi: () => specOf(declared),
      ready,
      closeStreams: () => lane.closeStreams(),
      dispose: () => {
        lane.closeStreams()
        disposing ??= api!.then((app) => app.dispose(), () => undefined).then(() => runtime.dispose())
        return disposing
      }
    }
  } catch (error) {
    if (api !== undefined) await api.then((app) => app.dispose(), () => undefined)
    await runtime.dispose()
    throw error
  }
}
