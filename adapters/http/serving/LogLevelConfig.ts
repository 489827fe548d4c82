/**
 * FLAGPORT_LOG_LEVEL for the standalone server. Effect's own `Config.logLevel` wants its labels
 * (`WARN`, `OFF`); operators write `warning` or `none` too, so the accepted names are listed here.
 */
import { Config, ConfigError, Either, LogLevel } from "effect"

const LOG_LEVELS: Readonly<Record<string, LogLevel.LogLevel>> = {
  all: LogLevel.All,
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  warning: LogLevel.Warning,
  error: LogLevel.Error,
  fatal: LogLevel.Fatal,
  off: LogLevel.None,
  none: LogLevel.None
}

/**
 * The least severe level the server logs: all (same as trace), trace, debug, info, warn (or
 * warning), error, fatal, or off (or none), in any case; default info. Anything else stops the start.
 */
export const logLevelConfig = Config.string("FLAGPORT_LOG_LEVEL").pipe(
  Config.mapOrFail((value) => {
    const level = Object.prototype.hasOwnProperty.call(LOG_LEVELS, value.toLowerCase()) ? LOG_LEVELS[value.toLowerCase()] : undefined
    return level === undefined
      ? Either.left(ConfigError.InvalidData([], `Expected one of ${Object.keys(LOG_LEVELS).join(", ")}, but received "${value}"`))
      : Either.right(level)
  }),
  Config.withDefault(LogLevel.Info)
)
