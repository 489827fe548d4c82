/**
 * The lane spans' protobuf (LaneSpanCodec.ts) is, byte for byte, what the OpenTelemetry library's
 * ProtobufTraceSerializer writes for the same spans (those the codec hands the JSON serializer),
 * over random routes, statuses, ids and times; and those spans are what the SDK records for a
 * server span under a remote parent (kind, parent, attributes and their order, status, flags).
 */
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer"
import { resourceFromAttributes } from "@opentelemetry/resources"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { laneSpanCodec } from "../../adapters/telemetry/lane/LaneSpanCodec.js"
import { type Batch, FIELDS, ID_BYTES } from "../../adapters/telemetry/lane/LaneSpanProtocol.js"

const RESOURCE = { "service.name": "flagport-test", "telemetry.sdk.name": "@effect/opentelemetry", "telemetry.sdk.language": "nodejs", "deployment.environment": "ünïcode" }

/** A deterministic stream of "random" bytes, so that two codecs draw the same span ids. */
const seeded = (seed: number) => {
  let state = seed >>> 0 || 1
  return (bytes: Uint8Array) => {
    for (let i = 0; i < bytes.length; i++) {
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      bytes[i] = state & 0xff
    }
  }
}

const ROUTES = [
  { name: "POST /v1/evaluate", attributes: { "http.request.method": "POST", "http.route": "/v1/evaluate" } },
  { name: "GET /v1/flags/:flagKey/eval", attributes: { "http.request.method": "GET", "http.route": "/v1/flags/:flagKey/eval" } },
  { name: "POST /ofrep/v1/evaluate/flags/:key", attributes: { "http.request.method": "POST", "http.route": "/ofrep/v1/evaluate/flags/:key" } }
]

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`))
const span = fc.record({
  route: fc.integer({ min: 0, max: ROUTES.length - 1 }),
  traceId: hex(32),
  parentId: hex(16),
  start: fc.double({ min: 0, max: 1e9, noNaN: true }),
  duration: fc.double({ min: 0, max: 1e5, noNaN: true }),
  status: fc.constantFrom(200, 201, 304, 400, 401, 404, 413, 429, 500, 503),
  parentSampled: fc.boolean()
})

type Span = typeof span extends fc.Arbitrary<infer A> ? A : never
const batchOf = (spans: ReadonlyArray<Span>): Batch => {
  const numbers = new Float64Array(spans.length * FIELDS)
  spans.forEach((s, i) => numbers.set([s.route, s.start, s.start + s.duration, s.status, s.parentSampled ? 1 : 0], i * FIELDS))
  return { count: spans.length, ids: Uint8Array.from(Buffer.from(spans.map((s) => s.traceId + s.parentId).join(""), "hex")), numbers }
}

const codecWith = (seed: number, timeOrigin: number, scope: { name: string; version?: string }) => {
  const codec = laneSpanCodec({ resource: RESOURCE, scope, timeOrigin, fields: FIELDS, idBytes: ID_BYTES, randomFill: seeded(seed) })
  ROUTES.forEach((r, i) => codec.route(i, r.name, r.attributes))
  return codec
}

describe("the lane spans' OTLP encoding", () => {
  it("writes the bytes the library's protobuf serializer writes for the same spans", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(span, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1 }),
        fc.double({ min: 1.6e12, max: 2.5e12, noNaN: true }),
        fc.option(fc.constantFrom("1.2.3", "0.1.0-dev"), { nil: undefined }),
        (groups, seed, timeOrigin, version) => {
          const scope = version === undefined ? { name: "flagport-test" } : { name: "flagport-test", version }
          const batches = groups.map(batchOf)
          const ours = codecWith(seed, timeOrigin, scope).encode(batches)
          const spans = codecWith(seed, timeOrigin, scope).readableSpans(batches, resourceFromAttributes(RESOURCE))
          const library = ProtobufTraceSerializer.serializeRequest(spans as Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0])!
          expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(library).toString("hex"))
        }
      ),
      { numRuns: 200 }
    )
  })

  it("records a server span under the remote parent, as the SDK does", () => {
    const codec = codecWith(7, 1_795_000_000_000.25, { name: "flagport-test" })
    const batch = batchOf([
      { route: 0, traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentId: "00f067aa0ba902b7", start: 1000.5, duration: 2.25, status: 503, parentSampled: false }
    ])
    const [s] = codec.readableSpans([batch], undefined) as Array<Record<string, any>>
    expect(s!.name).toBe("POST /v1/evaluate")
    expect(s!.kind).toBe(1) // SpanKind.SERVER
    expect(s!.spanContext()).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", traceFlags: 1 })
    expect(s!.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/)
    expect(s!.parentSpanContext).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 0, isRemote: true })
    expect(Object.entries(s!.attributes)).toEqual([["http.request.method", "POST"], ["http.route", "/v1/evaluate"], ["http.response.status_code", 503]])
    expect(s!.status).toEqual({ code: 2 }) // error from 500 on
    expect(s!.startTime).toEqual([1_795_000_001, 750_000])
    expect(s!.endTime).toEqual([1_795_000_001, 3_000_000])
    expect(s!.duration).toEqual([0, 2_250_000])
  })
})
