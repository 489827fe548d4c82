/** Tracing's settings from the OTEL_* variables (adapters/telemetry/Tracing.ts). */
import { ConfigProvider, Effect, Either, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Tracing from "../../adapters/telemetry/Tracing.js"
import { parentOf } from "../../adapters/telemetry/TracingSdk.js"
import { OTEL_LOG_LEVELS } from "../../adapters/telemetry/TracingSettings.js"

const read = (env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(Tracing.config, ConfigProvider.fromMap(new Map(Object.entries(env))))))

const settings = (env: Record<string, string>) => Option.getOrUndefined(Either.getOrThrow(read(env)))

describe("tracing settings", () => {
  it("is off without an endpoint, with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none", () => {
    expect(settings({})).toBeUndefined()
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_SDK_DISABLED: "true" })).toBeUndefined()
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_TRACES_EXPORTER: "none" })).toBeUndefined()
  })

  it("adds /v1/traces to the general endpoint and takes the traces endpoint as is; protobuf by default", () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" })).toEqual({
      endpoint: "http://c:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "flagport",
      sampler: "parentbased_always_on",
      samplerArg: 1,
      logLevel: "info"
    })
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:9999/custom" })?.endpoint).toBe(
      "http://t:9999/custom"
    )
    expect(
      settings({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "flags-eu",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.25"
      })
    ).toMatchObject({ protocol: "http/json", serviceName: "flags-eu", sampler: "parentbased_traceidratio", samplerArg: 0.25 })
  })

  it("refuses grpc, an unknown sampler and a ratio outside [0, 1]", () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }
    expect(Either.isLeft(read({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }))).toBe(true)
    expect(Either.isLeft(read({ ...base, OTEL_TRACES_SAMPLER: "sometimes" }))).toBe(true)
    expect(Either.isLeft(read({ ...base, OTEL_TRACES_SAMPLER_ARG: "2" }))).toBe(true)
  })

  it("reads OTEL_LOG_LEVEL by the specification's names in any case, and refuses others even with tracing off", () => {
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }
    for (const level of OTEL_LOG_LEVELS) expect(settings({ ...base, OTEL_LOG_LEVEL: level.toUpperCase() })?.logLevel).toBe(level)
    for (const env of [{ ...base, OTEL_LOG_LEVEL: "loud" }, { OTEL_LOG_LEVEL: "warning" }]) {
      const refused = read(env)
      expect(Either.isLeft(refused) && String(refused.left)).toMatch(/OTEL_LOG_LEVEL: expected one of none, error, warn, info, debug, verbose, all/)
    }
  })

  it("reads a W3C traceparent, refusing malformed and all-zero ids", () => {
    expect(parentOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
      isRemote: true
    })
    expect(parentOf("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined()
    expect(parentOf("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeUndefined()
    expect(parentOf("garbage")).toBeUndefined()
  })
})
