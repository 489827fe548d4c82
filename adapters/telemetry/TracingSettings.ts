/**
 * What tracing is configured with (Tracing.ts reads it from the `OTEL_*` variables): the values the
 * specification names, and the settings the SDK (TracingSdk.ts), its diagnostics (DiagLog.ts) and
 * the lane's spans (lane/LaneSpans.ts) are built from. Types and constants only, below every other file
 * of the room: the SDK that the room's face (Tracing.ts) loads takes them from here, not from the
 * face (no file imports what imports it).
 */
export type OtlpProtocol = "http/protobuf" | "http/json"

export const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio"
] as const
export type SamplerName = (typeof SAMPLERS)[number]

/** OTEL_LOG_LEVEL's values (the specification's names), least to most verbose. */
export const OTEL_LOG_LEVELS = ["none", "error", "warn", "info", "debug", "verbose", "all"] as const
export type OtelLogLevel = (typeof OTEL_LOG_LEVELS)[number]

export interface TracingSettings {
  /** Where spans are POSTed: the full traces URL. */
  readonly endpoint: string
  readonly protocol: OtlpProtocol
  readonly serviceName: string
  readonly sampler: SamplerName
  /** The ratio of the `*traceidratio` samplers (default 1). */
  readonly samplerArg: number
  /** The least severe of the SDK's diagnostics written to the log. */
  readonly logLevel: OtelLogLevel
}
