/**
 * A lane span is recorded exactly when the SDK would record it: `laneSampling` (TracingSdk.ts)
 * against the configured sampler itself (`withQuietRoots(samplerOf(...))`, as the tracer provider
 * has it), for a server span under the remote parent a `traceparent` names, over every sampler
 * of OTEL_TRACES_SAMPLER, ratios, trace ids and the parent's sampled flag.
 */
import * as OtelApi from "@opentelemetry/api"
import { SamplingDecision } from "@opentelemetry/sdk-trace-base"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { SAMPLERS } from "../../adapters/telemetry/TracingSettings.js"
import { laneSampling, samplerOf, withQuietRoots } from "../../adapters/telemetry/TracingSdk.js"

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`))

describe("lane spans' sampling", () => {
  it("is the decision of the configured sampler for a server span under a remote parent", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SAMPLERS),
        fc.oneof(fc.constantFrom(0, 0.25, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
        hex(32).filter((id) => !/^0+$/.test(id)),
        hex(16).filter((id) => !/^0+$/.test(id)),
        fc.boolean(),
        (name, ratio, traceId, spanId, sampled) => {
          const parent: OtelApi.SpanContext = { traceId, spanId, traceFlags: sampled ? OtelApi.TraceFlags.SAMPLED : OtelApi.TraceFlags.NONE, isRemote: true }
          const sdk = withQuietRoots(samplerOf(name, ratio)).shouldSample(
            OtelApi.trace.setSpanContext(OtelApi.ROOT_CONTEXT, parent),
            traceId,
            "POST /v1/evaluate",
            OtelApi.SpanKind.SERVER,
            { "http.request.method": "POST", "http.route": "/v1/evaluate" },
            []
          )
          expect(laneSampling(name, ratio)(traceId, sampled), `${name} ${ratio} ${traceId} ${sampled}`).toBe(sdk.decision === SamplingDecision.RECORD_AND_SAMPLED)
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("a ratio sampler keeps about its share of trace ids, whatever the parent says; the parent-based ones follow the parent", () => {
    const ids = fc.sample(hex(32), 4000)
    const kept = ids.filter((id) => laneSampling("traceidratio", 0.25)(id, false)).length
    expect(kept / ids.length).toBeGreaterThan(0.2)
    expect(kept / ids.length).toBeLessThan(0.3)
    expect(laneSampling("parentbased_traceidratio", 0)(ids[0]!, true)).toBe(true)
    expect(laneSampling("parentbased_always_on", 1)(ids[0]!, false)).toBe(false)
    expect(laneSampling("always_on", 1)(ids[0]!, false)).toBe(true)
    expect(laneSampling("always_off", 1)(ids[0]!, true)).toBe(false)
  })
})
