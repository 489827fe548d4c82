/**
 * FLAGPORT_METRICS (`on` or `off`, default off), FLAGPORT_METRICS_PORT (serve /metrics on this
 * port only, not on the API's) and FLAGPORT_METRICS_TOKEN (a bearer token /metrics then requires),
 * read with Effect's Config like the other FLAGPORT_* settings.
 */
import * as Config from "effect/Config"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export interface MetricsSettings {
  readonly enabled: boolean
  /** A port of its own for /metrics (none: /metrics is a route of the API's server). */
  readonly port: Option.Option<number>
  /** The bearer token /metrics requires (none: open to whoever reaches it). */
  readonly token: Option.Option<Redacted.Redacted<string>>
}

export const metricsConfig: Config.Config<MetricsSettings> = Config.all({
  enabled: Config.literal("on", "off")("FLAGPORT_METRICS").pipe(
    Config.withDefault("off" as const),
    Config.map((value) => value === "on")
  ),
  port: Config.option(Config.port("FLAGPORT_METRICS_PORT")),
  token: Config.option(Config.redacted("FLAGPORT_METRICS_TOKEN"))
})
