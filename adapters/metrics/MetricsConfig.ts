/**
 * FLAGPORT_METRICS (`on` or `off`, default off), FLAGPORT_METRICS_PORT (serve /metrics on this
 * port only, not on the API's), FLAGPORT_METRICS_HOST (that port's interface, loopback by default)
 * and FLAGPORT_METRICS_TOKEN (a bearer token /metrics then requires), read with Effect's Config
 * like the other FLAGPORT_* settings.
 *
 * /metrics names every project and environment (`flagport_evaluations_total`'s labels), so it is
 * never open to whoever reaches the API: on the API's port it needs the token (the start stops
 * without one); on a port of its own it listens on loopback unless told otherwise.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export interface MetricsSettings {
  readonly enabled: boolean
  /** A port of its own for /metrics (none: /metrics is a route of the API's server, and needs `token`). */
  readonly port: Option.Option<number>
  /** The interface that port listens on (default `127.0.0.1`: scrapers on this machine only). */
  readonly host?: string
  /** The bearer token /metrics requires (none: open to whoever reaches its own port). */
  readonly token: Option.Option<Redacted.Redacted<string>>
}

/** Where /metrics on a port of its own listens unless FLAGPORT_METRICS_HOST says otherwise. */
export const DEFAULT_METRICS_HOST = "127.0.0.1"

/** Why metrics on the API's port without a token do not start. */
export const METRICS_TOKEN_REQUIRED =
  "/metrics on the API's port names every project and environment to whoever reaches it: set FLAGPORT_METRICS_TOKEN " +
  "(scrapers send it as a bearer token), or FLAGPORT_METRICS_PORT to serve it on a port of its own (on loopback unless FLAGPORT_METRICS_HOST says otherwise)"

/** Why these settings cannot serve, or undefined when they can. */
export const metricsProblem = (settings: MetricsSettings): string | undefined =>
  settings.enabled && Option.isNone(settings.port) && Option.isNone(settings.token) ? METRICS_TOKEN_REQUIRED : undefined

export const metricsConfig: Config.Config<MetricsSettings> = Config.all({
  enabled: Config.literal("on", "off")("FLAGPORT_METRICS").pipe(
    Config.withDefault("off" as const),
    Config.map((value) => value === "on")
  ),
  port: Config.option(Config.port("FLAGPORT_METRICS_PORT")),
  host: Config.string("FLAGPORT_METRICS_HOST").pipe(Config.withDefault(DEFAULT_METRICS_HOST)),
  token: Config.option(Config.redacted("FLAGPORT_METRICS_TOKEN"))
}).pipe(
  Config.mapOrFail((settings) => {
    const problem = metricsProblem(settings)
    return problem === undefined ? Either.right(settings) : Either.left(ConfigError.InvalidData(["FLAGPORT_METRICS_TOKEN"], problem))
  })
)
