/**
 * The evaluation lane's fast decoders agree with the schemas of shared/EvaluationRequests.ts: whatever
 * a fast decoder accepts, the schema accepts and decodes to the same value (the rest goes to the schema for its 400).
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { ConfigQuery, EvaluateRequest, FlagEvalQuery } from "../../adapters/http/shared/EvaluationRequests.js"
import * as FastDecode from "../../adapters/http/lane/FastDecode.js"
import { evaluateBody } from "../../adapters/http/lane/ResultJson.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { EvaluationResult } from "../../src/domain/evaluation/EvaluationResult.js"
import { contextArbitrary, snapshotArbitrary } from "../domain/arbitraries.js"

const json = fc.jsonValue({ maxDepth: 3 })
/** Strings, sometimes with U+0000 (refused by the schemas for what is looked up in the database). */
const text = fc.oneof({ weight: 4, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.string().map((s) => `${s}\u0000`) })
const maybe = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined })
const record = <T extends Record<string, unknown>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))

const contextArb = fc.oneof(
  json,
  fc.record({ key: fc.oneof(fc.string(), json) }),
  fc.record({ key: fc.string(), attributes: fc.oneof(fc.dictionary(fc.string(), json), json) }),
  fc.record({ key: fc.string({ minLength: 1 }), attributes: fc.dictionary(fc.string(), json), extra: maybe(json) }).map(record)
)
const evaluateArb = fc.oneof(
  json,
  fc
    .record({
      environment: fc.oneof(text, json),
      context: contextArb,
      projectId: maybe(fc.oneof(text, json)),
      other: maybe(json)
    })
    .map(record)
)
// A query value is a string, or an array of strings when the parameter is repeated.
const queryValue = <A extends string>(value: fc.Arbitrary<A>) => fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) })
const queryArb = fc
  .record({
    environment: maybe(queryValue(text)),
    key: maybe(queryValue(fc.string())),
    attributes: maybe(queryValue(fc.oneof(fc.string(), json.map((v) => JSON.stringify(v))))),
    projectId: maybe(queryValue(text)),
    other: maybe(queryValue(fc.string())),
    // Names an ordinary object inherits: they must be plain (ignored) parameters.
    toString: maybe(queryValue(fc.string())),
    ["__proto__"]: maybe(queryValue(fc.string()))
  })
  .map((r) => record(r) as Record<string, FastDecode.QueryValue>)

const agrees = <A>(fast: A | undefined, schema: Either.Either<A, unknown>) => {
  if (fast === undefined) return
  expect(Either.isRight(schema)).toBe(true)
  if (Either.isRight(schema)) expect(fast).toEqual(schema.right)
}

describe("FastDecode agrees with the schemas", () => {
  it.prop("POST /v1/evaluate body", [evaluateArb], ([input]) => {
    agrees(FastDecode.evaluateRequest(input), Schema.decodeUnknownEither(EvaluateRequest)(input))
  }, { fastCheck: { numRuns: 2000 } })
  it.prop("GET /v1/flags/{flagKey}/eval query", [queryArb], ([input]) => {
    agrees(FastDecode.flagEvalQuery(input), Schema.decodeUnknownEither(FlagEvalQuery)(input))
  }, { fastCheck: { numRuns: 2000 } })
  it.prop("GET /v1/config query", [queryArb], ([input]) => {
    agrees(FastDecode.configQuery(input), Schema.decodeUnknownEither(ConfigQuery)(input))
  }, { fastCheck: { numRuns: 2000 } })
  it("an attribute named __proto__ is an ordinary attribute for both (found with seed -210903271)", () => {
    const body = JSON.parse('{"environment":"e","context":{"key":"k","attributes":{"__proto__":{"plan":"pro"}}}}') as unknown
    const decoded = Schema.decodeUnknownSync(EvaluateRequest)(body)
    expect(Object.keys(decoded.context.attributes ?? {})).toEqual(["__proto__"])
    expect((decoded.context.attributes as Record<string, unknown>)["plan"]).toBeUndefined()
    agrees(FastDecode.evaluateRequest(body), Schema.decodeUnknownEither(EvaluateRequest)(body))
    const query = { environment: "e", key: "k", attributes: '{"__proto__":{"plan":"pro"}}' }
    agrees(FastDecode.flagEvalQuery(query), Schema.decodeUnknownEither(FlagEvalQuery)(query))
  })
  it("a repeated parameter is refused by both (never one value winning)", () => {
    const repeated = { environment: ["production", "development"], key: "u" }
    expect(FastDecode.flagEvalQuery(repeated)).toBeUndefined()
    expect(Either.isLeft(Schema.decodeUnknownEither(FlagEvalQuery)(repeated))).toBe(true)
    expect(FastDecode.configQuery({ environment: ["production", "production"] })).toBeUndefined()
    expect(Either.isLeft(Schema.decodeUnknownEither(ConfigQuery)({ environment: ["production", "production"] }))).toBe(true)
  })
  it("accepts the common valid requests (so the fast path is actually taken)", () => {
    expect(FastDecode.evaluateRequest({ environment: "production", context: { key: "u", attributes: { plan: "pro" } } })).toBeDefined()
    expect(FastDecode.flagEvalQuery({ environment: "production", key: "u", attributes: '{"seats":3}' })).toEqual({
      environment: "production",
      key: "u",
      attributes: { seats: 3 }
    })
    expect(FastDecode.configQuery({ environment: "production" })).toEqual({ environment: "production" })
  })
  it("leaves invalid requests to the schema", () => {
    expect(FastDecode.evaluateRequest({ environment: "production", context: { key: "" } })).toBeUndefined()
    expect(FastDecode.evaluateRequest({ environment: "production", context: { key: "u" }, extra: 1 })).toBeUndefined()
    expect(FastDecode.evaluateRequest({ environment: "production", context: { key: "u", attributes: [] } })).toBeUndefined()
    expect(FastDecode.flagEvalQuery({ environment: "production", key: "u", attributes: "[1]" })).toBeUndefined()
    expect(FastDecode.configQuery({ environment: ["a", "b"] })).toBeUndefined()
  })
  it("leaves the environment out when the request names none (a bound key supplies it)", () => {
    expect(FastDecode.configQuery({})).toEqual({})
    expect(FastDecode.flagEvalQuery({ key: "u" })).toEqual({ key: "u" })
    expect(FastDecode.evaluateRequest({ context: { key: "u" } })).toEqual({ context: { key: "u" } })
  })
})

/** Query strings as clients and probes send them: encoded pieces, raw `+`, `%`, `=`, `&`, non-ASCII, broken escapes. */
const queryPiece = fc.oneof(
  fc.string().map((s) => encodeURIComponent(s)),
  fc.constantFrom("+", "%", "%2", "%zz", "%C3", "%C3%A9", "%E2%82%AC", "%ED%A0%80", "%F0%9F%98%80", "%2B", "%20", "=", "&", "&&", "é", "\u{1F600}", "\uD800", " ", "a", "environment", "key", "toString", "__proto__"),
  fc.string()
)
const rawQuery = fc.array(queryPiece, { maxLength: 12 }).map((pieces) => pieces.join(""))

describe("queryRecord", () => {
  it.prop("agrees with URLSearchParams on any query", [rawQuery], ([query]) => {
    expect(FastDecode.queryRecord(query)).toEqual(FastDecode.queryRecordOfSearchParams(query))
  }, { fastCheck: { numRuns: 3000 } })
  it("decodes the single-flag route's usual query by hand, as URLSearchParams would", () => {
    const query = `environment=production&key=user-42&attributes=${encodeURIComponent(JSON.stringify({ email: "a+b@example.com", country: "DE", seats: 3 }))}&x=a+b&e=&f`
    const expected = Object.assign(Object.create(null) as Record<string, unknown>, {
      environment: "production",
      key: "user-42",
      attributes: JSON.stringify({ email: "a+b@example.com", country: "DE", seats: 3 }),
      x: "a b",
      e: "",
      f: ""
    })
    expect(FastDecode.queryRecord(query)).toEqual(expected)
    expect(FastDecode.queryRecord("environment=a&environment=b&environment=c")).toEqual(FastDecode.queryRecordOfSearchParams("environment=a&environment=b&environment=c"))
    expect(Object.getPrototypeOf(FastDecode.queryRecord("toString=1"))).toBeNull()
  })
})

describe("ResultJson", () => {
  it("writes exactly what JSON.stringify writes, frozen (cached) or not", async () => {
    const { resultJson } = await import("../../adapters/http/lane/ResultJson.js")
    const frozen = Object.freeze({ flagKey: "a", value: { x: [1, "two"] }, variationKey: "on", reason: Object.freeze({ kind: "RULE_MATCH" as const, ruleId: "r", ruleIndex: 0 }) })
    const plain = { flagKey: "b\"q", value: null, variationKey: null, reason: { kind: "ERROR" as const, error: "FLAG_NOT_FOUND: b" } }
    for (let i = 0; i < 3; i++) {
      expect(resultJson(frozen)).toBe(JSON.stringify(frozen))
      expect(resultJson(plain)).toBe(JSON.stringify(plain))
    }
    plain.reason.error = "changed"
    expect(resultJson(plain)).toBe(JSON.stringify(plain))
  })

  it.prop(
    "evaluateBody writes JSON.stringify({ environment, flags: Evaluate.evaluateAll(...) }) as UTF-8, every time, and shows each result in order",
    [snapshotArbitrary, contextArbitrary, fc.string({ unit: "binary", maxLength: 12 })],
    ([snapshot, context, environment]) => {
      const compiled = Evaluate.compile(snapshot)
      const expected = Evaluate.evaluateAll(compiled, context)
      const bytes = Buffer.from(JSON.stringify({ environment, flags: expected }))
      for (let i = 0; i < 2; i++) {
        const seen: Array<EvaluationResult> = []
        expect(Buffer.compare(evaluateBody(environment, compiled, context, (result) => seen.push(result)), bytes)).toBe(0)
        expect(seen).toEqual(Object.values(expected))
      }
      expect(Buffer.compare(evaluateBody(environment, compiled, context, undefined), bytes)).toBe(0)
    },
    { fastCheck: { numRuns: 100 } }
  )

  it("evaluateBody of a snapshot without flags has flags {}", () => {
    const body = evaluateBody("production", Evaluate.compile({ environment: "production", flags: [], segments: [] }), { key: "u" }, undefined)
    expect(body.toString("utf8")).toBe('{"environment":"production","flags":{}}')
  })
})

describe("ETag and Accept-Encoding parsing", () => {
  it("If-None-Match compares weakly, with lists and *", async () => {
    const { etagMatches } = await import("../../adapters/http/lane/EvaluationLane.js")
    const etag = 'W/"abc"'
    expect(etagMatches(undefined, etag)).toBe(false)
    expect(etagMatches('W/"abc"', etag)).toBe(true)
    expect(etagMatches('"abc"', etag)).toBe(true)
    expect(etagMatches('"x", W/"abc"', etag)).toBe(true)
    expect(etagMatches("*", etag)).toBe(true)
    expect(etagMatches('"abcd"', etag)).toBe(false)
  })
  it("gzip only when accepted with a non-zero quality", async () => {
    const { acceptsGzip } = await import("../../adapters/http/lane/EvaluationLane.js")
    expect(acceptsGzip(undefined)).toBe(false)
    expect(acceptsGzip("gzip")).toBe(true)
    expect(acceptsGzip("br, gzip;q=0.5")).toBe(true)
    expect(acceptsGzip("GZIP")).toBe(true)
    expect(acceptsGzip("gzip;q=0")).toBe(false)
    expect(acceptsGzip("deflate, br")).toBe(false)
  })
})
