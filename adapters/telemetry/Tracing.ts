/**
 * OpenTelemetry traces, opt-in through the standard `OTEL_*` variables (docs/operations/operating.md):
 *
 * - on when a traces endpoint is set (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, used as is, or
 *   `OTEL_EXPORTER_OTLP_ENDPOINT`, to which `/v1/traces` is added), unless `OTEL_SDK_DISABLED=true`
 *   or `OTEL_TRACES_EXPORTER=none`;
 * - OTLP over HTTP, `http/protobuf` (the default, as the specification says) or `http/json`, from
 *   `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL` (`grpc` is refused: no gRPC
 *   exporter is shipped); `OTEL_EXPORTER_OTLP_HEADERS` and the timeout are read by the exporter;
 * - `OTEL_SERVICE_NAME` (default `flagport`), `OTEL_RESOURCE_ATTRIBUTES`;
 * - `OTEL_TRACES_SAMPLER` (default `parentbased_always_on`) and `OTEL_TRACES_SAMPLER_ARG`;
 * - `OTEL_LOG_LEVEL` (default `info`, as the specification gives): what the SDK's own diagnostics
 *   (export failures, dropped spans) write to the server's log (DiagLog.ts).
 *
 * The settings are read with Effect's Config (a bad value fails the start); the SDK itself
 * (TracingSdk.ts: @effect/opentelemetry's NodeSdk, a batch span processor, the OTLP exporter) is
 * loaded only when tracing is on, so a server without it does not pay for its import.
 *
 * With tracing on, the layer's output holds `ActiveTracing` (ActiveTracing.ts): the
 * serving room reads it to switch on the HttpApi app's request spans and the evaluation lane's
 * spans (LaneTracing.ts). Everything else (the use cases' `Effect.fn` spans, `@effect/sql`'s
 * statement spans, webhook sends, scheduled applies) goes through Effect's tracer, which the
 * layer replaces by the OpenTelemetry one.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ActiveTracing } from "./ActiveTracing.js"
import { OTEL_LOG_LEVELS, type OtlpProtocol, SAMPLERS, type TracingSettings } from "./TracingSettings.js"

const optionalString = (name: string) => Config.option(Config.string(name)).pipe(Config.map(Option.filter((s) => s.trim() !== "")))

const oneOf = <A extends string>(name: string, values: ReadonlyArray<A>, fallback: A) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((raw) => {
      const value = raw.trim().toLowerCase()
      return (values as ReadonlyArray<string>).includes(value)
        ? Either.right(value as A)
        : Either.left(ConfigError.InvalidData([], `${name}: expected one of ${values.join(", ")}, got '${raw}'`))
    })
  )

/** `base` + `/v1/traces`, as the specification builds the traces URL from OTEL_EXPORTER_OTLP_ENDPOINT. */
export const tracesUrl = (base: string): string => `${base.endsWith("/") ? base.slice(0, -1) : base}/v1/traces`

/**
 * The settings from the environment, `None` when tracing is off (no endpoint, OTEL_SDK_DISABLED,
 * OTEL_TRACES_EXPORTER=none). A protocol other than HTTP, an unknown sampler or log level, or a
 * ratio outside [0, 1] fails, whether tracing is on or not.
 */
export const config: Config.Config<Option.Option<TracingSettings>> = Config.all({
  disabled: Config.boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  exporter: Config.string("OTEL_TRACES_EXPORTER").pipe(Config.withDefault("otlp")),
  tracesEndpoint: optionalString("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  endpoint: optionalString("OTEL_EXPORTER_OTLP_ENDPOINT"),
  protocol: optionalString("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL").pipe(
    Config.zipWith(optionalString("OTEL_EXPORTER_OTLP_PROTOCOL"), (specific, general) => Option.orElse(specific, () => general)),
    Config.mapOrFail((protocol) => {
      const value = Option.getOrElse(protocol, () => "http/protobuf").trim().toLowerCase()
      return value === "http/protobuf" || value === "http/json"
        ? Either.right(value as OtlpProtocol)
        : Either.left(ConfigError.InvalidData([], `OTEL_EXPORTER_OTLP_PROTOCOL: Flagport exports traces over http/protobuf or http/json, got '${value}'`))
    })
  ),
  serviceName: Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("flagport")),
  sampler: oneOf("OTEL_TRACES_SAMPLER", SAMPLERS, "parentbased_always_on"),
  samplerArg: Config.number("OTEL_TRACES_SAMPLER_ARG").pipe(
    Config.withDefault(1),
    Config.validate({ message: "OTEL_TRACES_SAMPLER_ARG: a ratio between 0 and 1", validation: (n) => n >= 0 && n <= 1 })
  ),
  logLevel: oneOf("OTEL_LOG_LEVEL", OTEL_LOG_LEVELS, "info")
}).pipe(
  Config.map(({ disabled, endpoint, exporter, logLevel, protocol, sampler, samplerArg, serviceName, tracesEndpoint }) => {
    if (disabled || exporter.trim().toLowerCase() === "none") return Option.none()
    const url = Option.orElse(tracesEndpoint, () => Option.map(endpoint, tracesUrl))
    return Option.map(url, (url): TracingSettings => ({ endpoint: url, protocol, serviceName, sampler, samplerArg, logLevel }))
  })
)

/**
 * Traces exported as `settings` say: Effect's tracer becomes the OpenTelemetry one and
 * `ActiveTracing` is provided. Spans still buffered are flushed when the layer's scope closes.
 */
export const layer = (settings: TracingSettings): Layer.Layer<ActiveTracing> =>
  Layer.unwrapEffect(Effect.map(Effect.promise(() => import("./TracingSdk.js")), (sdk) => sdk.layer(settings)))

/**
 * `layer` when the environment turns tracing on, else nothing (see `config`). Its output then
 * holds `ActiveTracing`, found with `Effect.serviceOption(ActiveTracing)` (the type says nothing:
 * whether it is there is known at run time only).
 */
export const layerConfig: Layer.Layer<never, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(config, Option.match({ onNone: (): Layer.Layer<never> => Layer.empty, onSome: layer }))
)
