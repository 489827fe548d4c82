/**
 * FLAGPORT_LOG_LEVEL for the standalone server. Effect's own `Config.logLevel` wants its labels
 * (`WARN`, `OFF`); the accepted names are those of the CLI's `--log-level`, listed here.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as LogLevel from "effect/LogLevel"
/** The names `--log-level` accepts (@effect/cli's), so the variable and the option spell levels alike. */
const LOG_LEVELS: Readonly<Record<string, LogLevel.LogLevel>> = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  none: LogLevel.None
}

/** Also accepted: Effect's own labels for these two (`WARN`, `OFF`). */
const ALIASES: Readonly<Record<string, string>> = { warn: "warning", off: "none" }

const hasOwn = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key)

/**
 * The least severe level the server logs: all (same as trace), trace, debug, info, warning,
 * error, fatal or none, in any case (warn and off also work); default info. Anything else stops the start.
 */
export const logLevelConfig = Config.string("FLAGPORT_LOG_LEVEL").pipe(
  Config.mapOrFail((value) => {
    const lower = value.toLowerCase()
    const name = hasOwn(ALIASES, lower) ? ALIASES[lower]! : lower
    return hasOwn(LOG_LEVELS, name)
      ? Either.right(LOG_LEVELS[name]!)
      : Either.left(
          ConfigError.InvalidData([], `Expected one of ${Object.keys(LOG_LEVELS).join(", ")} (any case; warn and off also work), but received "${value}"`)
        )
  }),
  Config.withDefault(LogLevel.Info)
)
