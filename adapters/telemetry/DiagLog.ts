/**
 * The OpenTelemetry SDK's own diagnostics (`diag`: export failures from the batch processor and
 * the OTLP exporters, the evaluation lane's dropped spans) written to the server's log, through
 * Effect's logger like every other line (JSON lines with FLAGPORT_LOG_FORMAT=json, filtered by
 * FLAGPORT_LOG_LEVEL too), at OTEL_LOG_LEVEL and above. Without a logger set, `diag` discards
 * everything: an operator would never hear that spans are being lost.
 */
import { formatWithOptions } from "node:util"
import * as OtelApi from "@opentelemetry/api"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Runtime from "effect/Runtime"
import type { OtelLogLevel } from "./TracingSettings.js"

/** Each OTEL_LOG_LEVEL as `diag` knows it. */
const DIAG_LEVELS: Readonly<Record<OtelLogLevel, OtelApi.DiagLogLevel>> = {
  none: OtelApi.DiagLogLevel.NONE,
  error: OtelApi.DiagLogLevel.ERROR,
  warn: OtelApi.DiagLogLevel.WARN,
  info: OtelApi.DiagLogLevel.INFO,
  debug: OtelApi.DiagLogLevel.DEBUG,
  verbose: OtelApi.DiagLogLevel.VERBOSE,
  all: OtelApi.DiagLogLevel.ALL
}

/** The log level each of `diag`'s methods writes at (verbose is Effect's Trace). */
const LINE_LEVELS: Readonly<Record<keyof OtelApi.DiagLogger, LogLevel.LogLevel>> = {
  error: LogLevel.Error,
  warn: LogLevel.Warning,
  info: LogLevel.Info,
  debug: LogLevel.Debug,
  verbose: LogLevel.Trace
}

/** A `diag` logger that writes through `runtime`'s logger, each line marked as OpenTelemetry's. */
export const diagLogger = (runtime: Runtime.Runtime<never>): OtelApi.DiagLogger => {
  const log = Runtime.runSync(runtime)
  const at = (level: LogLevel.LogLevel): OtelApi.DiagLogFunction => (message, ...args) =>
    // One line: the SDK passes errors and objects after the message.
    log(Effect.logWithLevel(level, formatWithOptions({ breakLength: Infinity }, message, ...args)).pipe(Effect.annotateLogs("logger", "opentelemetry")))
  return {
    error: at(LINE_LEVELS.error),
    warn: at(LINE_LEVELS.warn),
    info: at(LINE_LEVELS.info),
    debug: at(LINE_LEVELS.debug),
    verbose: at(LINE_LEVELS.verbose)
  }
}

/** The layer whose logger `diag` has now, if one of ours: only that one may switch `diag` off. */
let current: object | undefined

/**
 * `diag` writes to the log of the fiber that builds this layer (its logger and minimum level) for
 * as long as the layer lives. `diag` is global to the process: the last layer built wins (replacing
 * a host's own `diag` logger says so through it), and releasing a layer switches `diag` off only
 * while its logger is still the one set, so closing one of two servers leaves the other's.
 */
export const layer = (level: OtelLogLevel): Layer.Layer<never> =>
  Layer.scopedDiscard(
    Effect.acquireRelease(
      Effect.map(Effect.runtime<never>(), (runtime) => {
        const owner = {}
        OtelApi.diag.setLogger(diagLogger(runtime), { logLevel: DIAG_LEVELS[level], suppressOverrideMessage: current !== undefined })
        current = owner
        return owner
      }),
      (owner) =>
        Effect.sync(() => {
          if (current !== owner) return
          current = undefined
          OtelApi.diag.disable()
        })
    )
  )
