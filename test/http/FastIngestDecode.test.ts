/**
 * The fast decoders of `POST /v1/exposures` and `POST /v1/track` (FastIngestDecode.ts) agree with the
 * routes' schemas: whatever a fast decoder accepts, the schema accepts and decodes to the same value;
 * what it declines goes to the schema for its 400. The arbitraries mix valid items (most batches
 * must be accepted, or the agreement is not tested) with every way a field can be wrong.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { ExposureBatchPayload } from "../../adapters/http/api/experiments/ExposuresGroup.js"
import * as FastIngestDecode from "../../adapters/http/api/experiments/FastIngestDecode.js"
import { TrackBatchPayload } from "../../adapters/http/api/experiments/TrackGroup.js"
import { limit } from "../../src/domain/Limits.js"

const json = fc.jsonValue({ maxDepth: 2 })
const maybe = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined })
/** Keys left out when undefined; `present` keeps them as `undefined` sometimes (the schema decodes those to themselves). */
const record = (fields: Record<string, unknown>, present: boolean) =>
  present ? fields : Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))

const key = fc.oneof(
  { weight: 30, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,10}$/) },
  { weight: 1, arbitrary: fc.constantFrom("", "-a", "a b", "x".repeat(128), "x".repeat(129), "é") },
  { weight: 1, arbitrary: json }
)
/** Text: sometimes with U+0000 or a lone surrogate, sometimes at or past a length limit. */
const text = (max: number) =>
  fc.oneof(
    { weight: 30, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "a\u0000b", "\ud800", "\udc00x", "😀", "x".repeat(max), "x".repeat(max + 1), "😀".repeat(max / 2)) },
    { weight: 1, arbitrary: json }
  )
const instant = fc.oneof(
  { weight: 30, arbitrary: fc.date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true }).map((d) => d.toISOString()) },
  {
    weight: 2,
    arbitrary: fc.constantFrom("2026-12-08T00:00:00Z", "2026-12-08T00:00Z", "2026-12-08T00:00:00.123456789+01:00", "2026-12-08", "2026-13-40T00:00:00Z",
      "2026-12-08T00:00:00", "2026-02-30T00:00:00Z", " 2026-12-08T00:00:00Z", "2026-12-08T25:61:00Z")
  },
  { weight: 1, arbitrary: json }
)
const value = fc.oneof(
  { weight: 20, arbitrary: fc.double({ noNaN: true, min: -1e12, max: 1e12 }) },
  { weight: 1, arbitrary: fc.constantFrom(1e12, -1e12, 1e12 + 1, Infinity, -Infinity, Number.NaN, -0) },
  { weight: 1, arbitrary: json }
)
const items = <A>(item: fc.Arbitrary<A>) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.array(item, { maxLength: 6 }) },
    { weight: 1, arbitrary: fc.constant(null).map(() => Array.from({ length: limit("ingestItems") + 1 }, () => ({}))) },
    { weight: 1, arbitrary: json }
  )

const exposure = fc
  .record({
    flagKey: key,
    variationKey: key,
    ruleId: text(128),
    unit: text(limit("ingestUnitLength")),
    timestamp: instant,
    extra: fc.oneof({ weight: 30, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: json })
  })
  .map((e) => record(e, false))
const event = fc
  .record({
    event: text(128),
    unit: text(limit("ingestUnitLength")),
    value: maybe(value),
    timestamp: maybe(instant),
    extra: fc.oneof({ weight: 30, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: json })
  })
  .chain((e) => fc.boolean().map((present) => record(e, present)))
const scope = {
  projectId: maybe(fc.oneof({ weight: 10, arbitrary: fc.string() }, { weight: 1, arbitrary: json })),
  environment: maybe(key),
  batchId: maybe(text(64)),
  other: fc.oneof({ weight: 30, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: json })
}
const exposureBatch = fc.oneof(
  { weight: 1, arbitrary: json },
  { weight: 8, arbitrary: fc.record({ ...scope, exposures: items(exposure) }).chain((b) => fc.boolean().map((present) => record(b, present))) }
)
const trackBatch = fc.oneof(
  { weight: 1, arbitrary: json },
  { weight: 8, arbitrary: fc.record({ ...scope, events: items(event) }).chain((b) => fc.boolean().map((present) => record(b, present))) }
)

const agrees = <A>(fast: A | undefined, schema: Either.Either<A, unknown>): boolean => {
  if (fast === undefined) return false
  expect(Either.isRight(schema)).toBe(true)
  if (Either.isRight(schema)) expect(fast).toEqual(schema.right)
  return true
}

describe("FastIngestDecode agrees with the routes' schemas", () => {
  it("POST /v1/exposures body", () => {
    let accepted = 0
    fc.assert(fc.property(exposureBatch, (input) => {
      if (agrees(FastIngestDecode.exposureBatch(input), Schema.decodeUnknownEither(ExposureBatchPayload)(input))) accepted++
    }), { numRuns: 3000 })
    // The accepting side is exercised, not only the declining one.
    expect(accepted).toBeGreaterThan(100)
  })
  it("POST /v1/track body", () => {
    let accepted = 0
    fc.assert(fc.property(trackBatch, (input) => {
      if (agrees(FastIngestDecode.trackBatch(input), Schema.decodeUnknownEither(TrackBatchPayload)(input))) accepted++
    }), { numRuns: 3000 })
    expect(accepted).toBeGreaterThan(100)
  })
  it("accepts the plain batches the SDK sends, and declines each kind of wrong item", () => {
    const at = "2026-12-08T00:00:00.000Z"
    const good = { flagKey: "f", variationKey: "on", ruleId: "r", unit: "u1", timestamp: at }
    expect(FastIngestDecode.exposureBatch({ environment: "production", batchId: "b1", exposures: [good, { ...good, unit: "u2" }] })).toBeDefined()
    expect(FastIngestDecode.trackBatch({ environment: "production", events: [{ event: "buy", unit: "u1", value: 2.5, timestamp: at }, { event: "buy", unit: "u2" }] })).toBeDefined()
    for (const wrong of [{ unit: "" }, { unit: "a\u0000" }, { flagKey: "-x" }, { timestamp: "yesterday" }, { ruleId: "r".repeat(129) }, { extra: 1 }]) {
      expect(FastIngestDecode.exposureBatch({ environment: "production", exposures: [good, { ...good, ...wrong }] })).toBeUndefined()
    }
    for (const wrong of [{ value: 1e12 + 1 }, { value: -1e13 }, { value: "1" }, { event: "" }, { timestamp: "2026-12-08" }, { value: undefined }]) {
      expect(FastIngestDecode.trackBatch({ events: [{ event: "buy", unit: "u", ...wrong }] })).toBeUndefined()
    }
  })
})
