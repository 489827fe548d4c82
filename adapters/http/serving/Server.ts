/**
 * The standalone server: Flagport's composition root for `flagport serve` / `npm start`.
 *
 * - `startServer(options)` opens the storage (DATABASE_URL by default; migrations are applied by
 *   the storage layer), starts the webhook dispatcher, listens on HOST:PORT with the embedded
 *   handlers (evaluation lane + HttpApi app) and resolves to a `RunningServer` once listening
 *   and the HttpApi app is built. It listens as soon as the evaluation lane can answer: the HttpApi
 *   app (every other route) is built meanwhile, and a request for it waits until it is.
 * - `RunningServer.close()` shuts down gracefully: end the change streams, stop accepting connections, let in-flight
 *   requests finish (idle keep-alive sockets are closed; after `drainTimeoutMs` the rest are cut),
 *   stop the dispatcher, close the database.
 * - `runServer(options)` = `startServer` + close on SIGTERM / SIGINT; it resolves after the
 *   shutdown, for a host whose whole process is the server. (`flagport serve` does not use it: the
 *   CLI calls `startServer` and handles signals itself, adapters/cli/commands/Serve.ts.)
 * - `serverConfig` reads PORT (8080) and HOST (0.0.0.0) through Effect's Config; the log level
 *   comes from FLAGPORT_LOG_LEVEL (LogLevelConfig.ts), tracing from the OTEL_* variables
 *   (adapters/telemetry/Tracing.ts).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import type { OidcSettings } from "../../oidc/OidcSettings.js"
import * as Composition from "../../app/Composition.js"
import { answerClientError } from "./ClientError.js"
import type { DashboardOptions } from "./Dashboard.js"
import { makeHandlers, type FlagportHandlers } from "./Embed.js"
import { logLevelConfig } from "./LogLevelConfig.js"
import * as Tracing from "../../telemetry/Tracing.js"
import type { LaneConfig } from "../lane/EvaluationLaneLayer.js"
import { streamLimitsConfig } from "../shared/StreamLimits.js"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import { listenMetrics } from "../../metrics/MetricsEndpoint.js"
import { DEFAULT_METRICS_HOST, metricsConfig, metricsProblem, type MetricsSettings } from "../../metrics/MetricsConfig.js"
import { ServerMetrics } from "../../metrics/ServerMetrics.js"
import { type LogFormat, logFormatConfig } from "./RequestLog.js"

/** Node's connection limits (see `startServer`). */
export const HEADERS_TIMEOUT_MS = 10_000
export const REQUEST_TIMEOUT_MS = 30_000
/** Connections beyond FLAGPORT_STREAMS_MAX, for requests that are not streams. */
export const EXTRA_CONNECTIONS = 1_000

export const DEFAULT_PORT = 8080
export const DEFAULT_HOST = "0.0.0.0"

/** PORT and HOST from the environment. */
export const serverConfig = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(DEFAULT_PORT)),
  host: Config.string("HOST").pipe(Config.withDefault(DEFAULT_HOST))
})

/** FLAGPORT_CONFIRM_ENVIRONMENTS: the dashboard's production-like environments (comma-separated keys). */
export const confirmEnvironmentsConfig = Config.string("FLAGPORT_CONFIRM_ENVIRONMENTS").pipe(
  Config.withDefault("production"),
  Config.map((list) => list.split(",").map((k) => k.trim()).filter((k) => k !== ""))
)


export interface ServerOptions {
  /** Port to listen on (0 picks a free one). Default: PORT, else 8080. */
  readonly port?: number
  /** Interface to listen on. Default: HOST, else 0.0.0.0. */
  readonly host?: string
  /** Default: DATABASE_URL, else `sqlite:./data/flagport.db`. Ignored when `storage` is given. */
  readonly databaseUrl?: string
  /** The storage layer to use instead of `databaseUrl` (tests, custom setups). */
  readonly storage?: Layer.Layer<Composition.Storage, unknown>
  /** Run the webhook dispatcher in this process (default true). */
  readonly webhooks?: boolean
  /** Run the scheduler of scheduled changes in this process (default true). */
  readonly schedules?: boolean
  /** Cache bounds of the evaluation lane. */
  readonly lane?: LaneConfig
  /** How long in-flight requests may take to finish after a shutdown starts (default 10 s). */
  readonly drainTimeoutMs?: number
  /** The dashboard at /ui/ (`/` redirects there); `false` leaves it out. Default: on, FLAGPORT_CONFIRM_ENVIRONMENTS. */
  readonly dashboard?: DashboardOptions | false
  /** Single sign-on settings (none: off); default: the FLAGPORT_OIDC_* variables (App.ts). */
  readonly oidc?: Option.Option<OidcSettings>
  /**
   * Prometheus metrics (docs/operations/operating.md); default: FLAGPORT_METRICS, FLAGPORT_METRICS_PORT,
   * FLAGPORT_METRICS_HOST, FLAGPORT_METRICS_TOKEN. On the API's port a token is required (the start throws without one).
   */
  readonly metrics?: MetricsSettings
  /** `json`: one JSON line per request, and JSON log lines; default: FLAGPORT_LOG_FORMAT, else text. */
  readonly logFormat?: LogFormat
  /** Where JSON request lines go (default: stdout). */
  readonly requestLog?: (line: string) => void
}

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly host: string
  readonly handlers: FlagportHandlers
  /** Where /metrics is served when it has a port of its own (FLAGPORT_METRICS_PORT, on FLAGPORT_METRICS_HOST). */
  readonly metricsUrl?: string
  /** Graceful shutdown; safe to call more than once. */
  readonly close: () => Promise<void>
}

const resolveConfig = async (options: ServerOptions): Promise<{ port: number; host: string }> => {
  const fromEnv = await Effect.runPromise(serverConfig)
  return { port: options.port ?? fromEnv.port, host: options.host ?? fromEnv.host }
}

const storageOf = async (options: ServerOptions): Promise<Layer.Layer<Composition.Storage, unknown>> => {
  if (options.storage !== undefined) return options.storage
  const url = options.databaseUrl ?? (await Effect.runPromise(Composition.databaseUrlConfig))
  return Composition.fromDatabaseUrl(url)
}

/**
 * The app of the composition root (adapters/app/Composition.ts) with the background workers it
 * chooses (the webhook dispatcher and the scheduler unless left out), as one layer, logging at
 * FLAGPORT_LOG_LEVEL, with traces exported when the OTEL_* variables ask for them
 * (adapters/telemetry/Tracing.ts; built first, so the workers' spans are exported too).
 */
export const servicesLayer = (storage: Layer.Layer<Composition.Storage, unknown>, webhooks = true, schedules = true, logFormat?: LogFormat) =>
  // The level and format are set before anything is built, so the workers' fibers and the request
  // handlers (which run in the runtime built from this layer) all inherit them.
  // Tracing's layer gets both too: the SDK's diagnostics (OTEL_LOG_LEVEL) are written through them.
  Composition.servicesLayer(storage, { webhooks, schedules }).pipe(
    Layer.provideMerge(Tracing.layerConfig),
    Layer.provide(Layer.unwrapEffect(Effect.map(logLevelConfig, Logger.minimumLogLevel))),
    Layer.provide(
      Layer.unwrapEffect(
        Effect.map(logFormat === undefined ? logFormatConfig : Effect.succeed(logFormat), (format) => (format === "json" ? Logger.json : Layer.empty))
      )
    )
  )

/** The request lines' sink: JSON format and a level that shows info; else none. */
const requestLogOf = async (options: ServerOptions): Promise<((line: string) => void) | undefined> => {
  const format = options.logFormat ?? (await Effect.runPromise(logFormatConfig))
  if (format !== "json") return undefined
  const level = await Effect.runPromise(logLevelConfig)
  if (LogLevel.greaterThan(level, LogLevel.Info)) return undefined
  return options.requestLog ?? ((line) => void process.stdout.write(`${line}\n`))
}

export const startServer = async (options: ServerOptions = {}): Promise<RunningServer> => {
  const { host, port } = await resolveConfig(options)
  const dashboard: DashboardOptions | false = options.dashboard === false
    ? false
    : { confirmEnvironments: await Effect.runPromise(confirmEnvironmentsConfig), redirectRoot: true, ...options.dashboard }
  const metricsSettings = options.metrics ?? (await Effect.runPromise(metricsConfig))
  const metricsRefused = metricsProblem(metricsSettings)
  if (metricsRefused !== undefined) throw new Error(metricsRefused)
  const metrics = metricsSettings.enabled ? new ServerMetrics() : undefined
  const requestLog = await requestLogOf(options)
  const handlers = await makeHandlers({
    services: servicesLayer(await storageOf(options), options.webhooks ?? true, options.schedules ?? true, options.logFormat),
    dashboard,
    ...(metrics === undefined
      ? {}
      : { metrics: { registry: metrics, serve: Option.isNone(metricsSettings.port), token: metricsSettings.token } }),
    ...(requestLog === undefined ? {} : { requestLog }),
    ...(options.lane === undefined ? {} : { lane: options.lane }),
    ...(options.oidc === undefined ? {} : { oidc: options.oidc }),
    // Listening (and answering evaluations) while the HttpApi app is built; `ready` below.
    apiInBackground: true
  })
  let shuttingDown = false
  const server: Server = createServer((req, res) => {
    if (shuttingDown) res.setHeader("connection", "close")
    handlers.node(req, res)
  })
  server.on("clientError", answerClientError)
  // Slow clients cannot hold sockets forever: a request's headers within 10 s, the whole request
  // within 30 s (neither applies once the answer has begun, so change streams stay open), and no
  // more connections than the streams allowed plus room for ordinary requests.
  server.headersTimeout = HEADERS_TIMEOUT_MS
  server.requestTimeout = REQUEST_TIMEOUT_MS
  server.maxConnections = (await Effect.runPromise(streamLimitsConfig)).total + EXTRA_CONNECTIONS
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen(port, host, () => {
        server.off("error", reject)
        resolve()
      })
    })
  } catch (error) {
    await handlers.dispose()
    throw error
  }
  // Started once the rest of the API is built too (a failure to build it fails the start, as before).
  try {
    await handlers.ready
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await handlers.dispose()
    throw error
  }
  // /metrics on a port of its own: scrapers reach it, the API's clients (and its port) need not.
  let metricsServer: { readonly url: string; readonly close: () => Promise<void> } | undefined
  if (metrics !== undefined && Option.isSome(metricsSettings.port)) {
    try {
      metricsServer = await listenMetrics(metrics, metricsSettings.token, metricsSettings.port.value, metricsSettings.host ?? DEFAULT_METRICS_HOST)
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await handlers.dispose()
      throw error
    }
  }
  const address = server.address() as AddressInfo
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      shuttingDown = true
      // Streams never finish on their own: end them first, so the drain waits only for real requests.
      handlers.closeStreams()
      const drained = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      const timer = setTimeout(() => server.closeAllConnections(), options.drainTimeoutMs ?? 10_000)
      await drained
      clearTimeout(timer)
      await metricsServer?.close()
      await handlers.dispose()
    })()
    return closing
  }
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    host: address.address,
    handlers,
    ...(metricsServer === undefined ? {} : { metricsUrl: metricsServer.url }),
    close
  }
}

/**
 * Serves until SIGTERM or SIGINT, then shuts down gracefully and resolves (the caller exits 0).
 * `onListening` is told the address once the server accepts connections.
 */
export const runServer = async (
  options: ServerOptions & { readonly onListening?: (server: RunningServer) => void } = {}
): Promise<void> => {
  const running = await startServer(options)
  options.onListening?.(running)
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGTERM", stop)
      process.off("SIGINT", stop)
      running.close().then(resolve, resolve)
    }
    process.on("SIGTERM", stop)
    process.on("SIGINT", stop)
  })
}
