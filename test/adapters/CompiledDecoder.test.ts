/**
 * The compiled decoder (adapters/sql/decoding/CompiledDecoder.ts) must decode exactly as Effect's: the same
 * value for every input Effect accepts, `Invalid` for every input it refuses. Checked on the
 * shapes SQL rows have (JSON columns of the domain's schemas, 0/1 booleans, integers as strings),
 * with valid rows, rows with one column replaced by anything, and raw values.
 */
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Either, FastCheck as fc, ParseResult, Schema } from "effect"
import { compile, Invalid } from "../../adapters/sql/decoding/CompiledDecoder.js"
import { SqlBoolean, SqlInteger } from "../../adapters/sql/SqlRows.js"
import { FlagType, Variation } from "../../src/domain/definitions/Flag.js"
import { choiceAnnotation } from "../../src/domain/ChosenSchema.js"
import { Condition, Prerequisite, Rule } from "../../src/domain/definitions/Targeting.js"

/** A row as SnapshotRow in SqlFlagRepository.ts reads it, plus an optional column. */
const Row = Schema.Struct({
  key: Schema.String,
  type: FlagType,
  variations: Schema.parseJson(Schema.Array(Variation)),
  enabled: SqlBoolean,
  description: Schema.NullOr(Schema.String),
  prerequisites: Schema.parseJson(Schema.Array(Prerequisite)),
  rules: Schema.parseJson(Schema.Array(Rule)),
  version: SqlInteger,
  note: Schema.optional(Schema.String)
})

const agrees = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const expected = Schema.decodeUnknownEither(schema)(input)
  const actual = compile(schema)(input)
  if (Either.isLeft(expected)) expect(actual).toBe(Invalid)
  else expect(actual).toStrictEqual(expected.right)
}

/** Valid encoded rows: decoded values, encoded back (0/1 or booleans, numbers or digit strings). */
const encodedRow = fc.tuple(Arbitrary.make(Row), fc.boolean(), fc.boolean()).map(([row, asNumber, asString]) => {
  const encoded = Schema.encodeSync(Row)(row)
  return { ...encoded, enabled: asNumber ? (row.enabled ? 1 : 0) : row.enabled, version: asString ? String(row.version) : row.version }
})

const columns = Object.keys(Row.fields)

/**
 * Runs per property. A generated rule set averages ~100 KB of JSON (`anyOf` groups of up to 10
 * lists of 10 conditions), ~50 ms a run, and a property runs synchronously: at a few hundred runs
 * it blocked its vitest worker for over a minute on a loaded CI machine, and the worker's own
 * report to vitest timed out. These counts keep each property to a few seconds.
 */
const RUNS = { fastCheck: { numRuns: 60 } }

describe("CompiledDecoder", () => {
  it.prop("decodes valid rows as Schema does", [encodedRow], ([row]) => agrees(Row, row), RUNS)

  it.prop(
    "refuses a row where Schema does, with one column replaced by anything",
    [encodedRow, fc.constantFrom(...columns), fc.oneof(fc.jsonValue(), fc.anything(), fc.json())],
    ([row, column, value]) => agrees(Row, { ...row, [column]: value }),
    { fastCheck: { numRuns: 120 } }
  )

  it.prop(
    "agrees inside JSON columns: rules and conditions with a field replaced",
    [Arbitrary.make(Schema.Array(Rule)), fc.constantFrom("id", "name", "conditions", "variationKey", "rollout", "extra"), fc.jsonValue()],
    ([rules, field, value]) => {
      const json = JSON.parse(JSON.stringify(rules)) as Array<Record<string, unknown>>
      if (json[0] !== undefined) json[0][field] = value
      agrees(Schema.parseJson(Schema.Array(Rule)), JSON.stringify(json))
      agrees(Schema.Array(Condition), json[0]?.["conditions"])
    },
    RUNS
  )

  it.prop("agrees on anything at all", [fc.anything()], ([value]) => {
    agrees(Row, value)
    agrees(SqlBoolean, value)
    agrees(SqlInteger, value)
  }, { fastCheck: { numRuns: 200 } })

  it("hands a transformation that answers an Effect to Effect's decoder, and takes its answer whole", () => {
    const Boxed = Schema.Struct({ right: Schema.String })
    const ViaEffect = Schema.transformOrFail(Schema.String, Boxed, {
      strict: true,
      decode: (s) => Effect.succeed({ right: s }),
      encode: (boxed) => Effect.succeed(boxed.right)
    })
    const ViaEither = Schema.transform(Schema.String, Boxed, { strict: true, decode: (s) => ({ right: s }), encode: (boxed) => boxed.right })
    for (const schema of [ViaEffect, ViaEither]) {
      agrees(Schema.Array(schema), ["a", "b"])
      agrees(Schema.Array(schema), ["a", 1])
      expect(compile(schema)("x")).toStrictEqual({ right: "x" })
    }
  })

  it("names that are not identifiers: quotes, backslashes, digits, spaces, symbols, __proto__", () => {
    const symbol = Symbol.for("flagport/test")
    const Odd = Schema.Struct({
      'a"b': Schema.String,
      "c\\d": Schema.Number,
      "0": Schema.Boolean,
      "x y": Schema.optional(Schema.String),
      [symbol]: Schema.String
    })
    const input = { 'a"b': "q", "c\\d": 1, "0": true, [symbol]: "s" }
    expect(compile(Odd)(input)).toStrictEqual(input)
    // A struct answered as it came (no copy) when every property decodes to itself.
    const plain = { 'a"b': "q", "0": true }
    expect(compile(Schema.Struct({ 'a"b': Schema.String, "0": Schema.Boolean }))(plain)).toBe(plain)
    for (const value of [input, { ...input, "x y": "z" }, { ...input, "x y": 2 }, { ...input, "0": "yes" }, { ...input, extra: 1 }, { 'a"b': "q" }]) {
      agrees(Odd, value)
    }
    const WithProto = Schema.Struct({ key: Schema.String, __proto__: Schema.optional(Schema.String) })
    for (const text of ['{"key":"k","__proto__":"p"}', '{"key":"k"}', '{"key":"k","__proto__":{"polluted":true}}']) {
      agrees(WithProto, JSON.parse(text))
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })

  it("unions Effect decodes in its own order, NaN literals and other shapes agree", () => {
    const Tagged = Schema.Union(
      Schema.Struct({ a: Schema.NumberFromString }),
      Schema.Struct({ type: Schema.Literal("t"), a: Schema.String })
    )
    for (const value of [{ type: "t", a: "1" }, { a: "1" }, { type: "u", a: "1" }, { type: "t", a: 1 }, "t", null]) agrees(Tagged, value)
    expect(compile(Tagged)({ type: "t", a: "1" })).toStrictEqual({ type: "t", a: "1" })
    const WithNaN = Schema.Literal(Number.NaN, 1)
    for (const value of [Number.NaN, 1, 2, "1"]) agrees(WithNaN, value)
    const Pair = Schema.Union(Schema.Tuple(Schema.Literal("n"), Schema.NumberFromString), Schema.Tuple(Schema.String, Schema.String))
    for (const value of [["n", "2"], ["m", "2"], ["n", "x"], []]) agrees(Pair, value)
  })

  it("drops properties the schema does not name, as Schema does, and leaves the input alone", () => {
    const input = JSON.parse('[{"flagKey":"a","variationKey":"on","extra":1}]') as unknown
    agrees(Schema.Array(Prerequisite), input)
    expect(compile(Schema.Array(Prerequisite))(input)).toStrictEqual([{ flagKey: "a", variationKey: "on" }])
    expect(input).toStrictEqual([{ flagKey: "a", variationKey: "on", extra: 1 }])
  })

  it("compiles the schema a declaration with a choice picks, without calling the declaration", () => {
    let calls = 0
    const choose = (u: unknown) => (typeof u === "string" ? 0 : typeof u === "number" ? 1 : -1)
    const Either_ = Schema.declare<string | number, string | number, readonly [typeof Schema.NonEmptyString, typeof Schema.Int]>([Schema.NonEmptyString, Schema.Int], {
      decode: (text, int) => (input, options, ast): Effect.Effect<string | number, ParseResult.ParseIssue> => {
        calls++
        const i = choose(input)
        return i === 0 ? ParseResult.decodeUnknown(text)(input, options) : i === 1 ? ParseResult.decodeUnknown(int)(input, options) : ParseResult.fail(new ParseResult.Type(ast, input))
      },
      encode: () => (input, _, ast) => (typeof input === "string" || typeof input === "number" ? ParseResult.succeed(input) : ParseResult.fail(new ParseResult.Type(ast, input)))
    }, choiceAnnotation(choose))
    const compiled = compile(Schema.Array(Either_))
    expect(compiled(["a", 1, "b"])).toStrictEqual(["a", 1, "b"])
    for (const value of [[""], [1.5], [true], [null], ["a", 2, {}]]) expect(compiled(value)).toBe(Invalid)
    expect(calls).toBe(0)
    for (const value of [["a", 1, "b"], [""], [1.5], [true], ["a", 2, {}]]) agrees(Schema.Array(Either_), value)
  })

  it("rules with groups, and a group inside a group refused, decode as Effect decodes them", () => {
    const rules = [
      { conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }, { anyOf: [[{ attribute: "a", operator: "exists", values: [] }]] }], variationKey: "on" }
    ]
    agrees(Schema.Array(Rule), rules)
    const nested = [{ conditions: [{ anyOf: [[{ anyOf: [[{ attribute: "a", operator: "exists", values: [] }]] }]] }], variationKey: "on" }]
    agrees(Schema.Array(Rule), nested)
    expect(compile(Schema.Array(Rule))(nested)).toBe(Invalid)
  })
})
