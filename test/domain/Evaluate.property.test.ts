/**
 * Properties of evaluation over arbitrary valid definitions and contexts. The generated
 * definitions are checked by `Validation` first, so the properties speak about exactly the
 * definitions the service accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import type { ConfigSnapshot, SnapshotFlag, SnapshotSegment } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { EvaluationContext } from "../../src/domain/evaluation/EvaluationContext.js"
import type { FlagType } from "../../src/domain/definitions/Flag.js"
import type { Condition, Operator, Rule } from "../../src/domain/definitions/Targeting.js"
import * as Validation from "../../src/domain/definitions/Validation.js"

const ATTRIBUTES = ["key", "country", "plan", "age", "email", "version", "signup", "tags"] as const
const SEGMENT_KEYS = ["seg-a", "seg-b"] as const

const stringValue = fc.constantFrom("US", "DE", "pro", "free", "a@example.com", "b@test.org", "1.2.3", "2.0.0-rc.1", "2026-01-01T00:00:00Z", "")
const numberValue = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }))
const attributeValue: fc.Arbitrary<unknown> = fc.oneof(
  stringValue,
  numberValue,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(stringValue, numberValue), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 })
)

const attributeCondition: fc.Arbitrary<Condition> = fc
  .tuple(
    fc.constantFrom(...ATTRIBUTES),
    fc.constantFrom<Operator>(
      "in", "notIn", "contains", "startsWith", "endsWith", "matches", "lt", "lte", "gt", "gte",
      "before", "after", "semverEq", "semverLt", "semverGt", "exists"
    ),
    fc.boolean()
  )
  .chain(([attribute, operator, negate]) => {
    const values: fc.Arbitrary<ReadonlyArray<unknown>> = (() => {
      switch (operator) {
        case "in":
        case "notIn":
          return fc.array(fc.oneof(stringValue, numberValue, fc.boolean()), { minLength: 1, maxLength: 4 })
        case "contains":
        case "startsWith":
        case "endsWith":
          return fc.array(stringValue, { minLength: 1, maxLength: 3 })
        case "matches":
          return fc.array(fc.constantFrom("^US$", "example\\.com$", "^\\d+$", "[a-z]+", "^(pro|free)$"), { minLength: 1, maxLength: 2 })
        case "lt":
        case "lte":
        case "gt":
        case "gte":
          return fc.array(numberValue, { minLength: 1, maxLength: 3 })
        case "before":
        case "after":
          return fc.array(fc.oneof(fc.constantFrom("2026-01-01T00:00:00Z", "2020-06-30"), fc.integer({ min: 0, max: 2e12 })), { minLength: 1, maxLength: 2 })
        case "semverEq":
        case "semverLt":
        case "semverGt":
          return fc.array(fc.constantFrom("1.2.3", "2.0.0-rc.1", "0.0.1"), { minLength: 1, maxLength: 2 })
        default:
          return fc.constant([])
      }
    })()
    return values.map((vs): Condition => ({ attribute, operator, values: vs, negate }))
  })

const segmentCondition: fc.Arbitrary<Condition> = fc
  .tuple(fc.constantFrom("inSegment" as const, "notInSegment" as const), fc.subarray([...SEGMENT_KEYS], { minLength: 1 }), fc.boolean())
  .map(([operator, values, negate]) => ({ operator, values, negate }))

const valueOf = (type: FlagType): fc.Arbitrary<unknown> =>
  type === "boolean" ? fc.boolean() : type === "string" ? fc.string() : type === "number" ? numberValue : fc.jsonValue({ maxDepth: 2 })

/** Weights summing to exactly 100000 over `n` slices. */
const weights = (n: number): fc.Arbitrary<Array<number>> =>
  fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
    const sorted = [...cuts].sort((a, b) => a - b)
    return [...sorted, 100_000].map((c, i) => c - (i === 0 ? 0 : sorted[i - 1]!))
  })

const flagArbitrary = (key: string): fc.Arbitrary<SnapshotFlag> =>
  fc.constantFrom<FlagType>("boolean", "string", "number", "json").chain((type) =>
    fc.uniqueArray(fc.constantFrom("v0", "v1", "v2", "v3"), { minLength: 1, maxLength: 4 }).chain((keys) => {
      const variationKey = fc.constantFrom(...keys)
      const rule = (id: string): fc.Arbitrary<Rule> =>
        fc
          .tuple(
            fc.array(fc.oneof({ weight: 4, arbitrary: attributeCondition }, { weight: 1, arbitrary: segmentCondition }), { maxLength: 3 }),
            fc.oneof(
              variationKey.map((v) => ({ variationKey: v })),
              fc
                .tuple(fc.subarray(keys, { minLength: 1 }), fc.option(fc.constantFrom("key", "country", "age"), { nil: undefined }), fc.option(fc.string(), { nil: undefined }))
                .chain(([slices, bucketBy, seed]) =>
                  weights(slices.length).map((ws) => ({
                    rollout: {
                      ...(bucketBy === undefined ? {} : { bucketBy }),
                      ...(seed === undefined ? {} : { seed }),
                      variations: slices.map((v, i) => ({ variationKey: v, weight: ws[i]! }))
                    }
                  }))
                )
            )
          )
          .map(([conditions, serve]) => ({ id, conditions, ...serve }))
      return fc.record({
        key: fc.constant(key),
        type: fc.constant(type),
        enabled: fc.boolean(),
        variations: fc.tuple(...keys.map((k) => valueOf(type).map((value) => ({ key: k, value })))),
        defaultVariationKey: variationKey,
        offVariationKey: variationKey,
        rules: fc.integer({ min: 0, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rule(`r${i}`))))
      })
    })
  )

const segmentsArbitrary: fc.Arbitrary<Array<SnapshotSegment>> = fc.tuple(
  ...SEGMENT_KEYS.map((key) => fc.array(attributeCondition, { maxLength: 2 }).map((conditions) => ({ key, conditions })))
)

const snapshotArbitrary: fc.Arbitrary<ConfigSnapshot> = fc
  .tuple(flagArbitrary("f0"), flagArbitrary("f1"), flagArbitrary("f2"), segmentsArbitrary)
  .map(([a, b, c, segments]) => ({ environment: "production", flags: [a, b, c], segments }))

const contextArbitrary: fc.Arbitrary<EvaluationContext> = fc.record({
  key: fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("US", "pro", "user-1")),
  attributes: fc.dictionary(fc.constantFrom(...ATTRIBUTES.filter((a) => a !== "key")), attributeValue, { maxKeys: 6 })
})

const isOfType = (type: FlagType, value: unknown): boolean =>
  type === "boolean" ? typeof value === "boolean" : type === "string" ? typeof value === "string" : type === "number" ? typeof value === "number" : value !== undefined

const runs = { fastCheck: { numRuns: 300 } }

describe("evaluation properties", () => {
  it.prop(
    "generated definitions are valid (so the properties below speak about accepted definitions)",
    [snapshotArbitrary],
    ([snap]) => {
      const segmentKeys = new Set(snap.segments.map((s) => s.key))
      for (const s of snap.segments) expect(Validation.validateSegmentConditions(s.conditions)).toEqual([])
      for (const f of snap.flags) {
        expect(Validation.validateVariations(f.type, f.variations)).toEqual([])
        expect(Validation.validateTargeting(f, { environment: "production", ...f }, segmentKeys)).toEqual([])
      }
    },
    runs
  )

  it.prop(
    "total and deterministic: never throws, never ERROR on a valid definition, same answer every time",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const compiled = Evaluate.compile(snap)
      const again = Evaluate.compile(structuredClone(snap))
      for (const f of snap.flags) {
        const result = Evaluate.evaluate(compiled, f.key, context)
        expect(result.reason.kind).not.toBe("ERROR")
        expect(Evaluate.evaluate(compiled, f.key, context)).toEqual(result)
        expect(Evaluate.evaluate(again, f.key, structuredClone(context))).toEqual(result)
      }
      expect(Evaluate.evaluateAll(compiled, context)).toEqual(Evaluate.evaluateAll(again, context))
    },
    runs
  )

  it.prop(
    "the served value is one of the flag's variations and has the flag's type",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const all = Evaluate.evaluateAll(Evaluate.compile(snap), context)
      for (const f of snap.flags) {
        const result = all[f.key]!
        const variation = f.variations.find((v) => v.key === result.variationKey)
        expect(variation).toBeDefined()
        expect(result.value).toEqual(variation!.value)
        expect(isOfType(f.type, result.value)).toBe(true)
        if (result.reason.kind === "RULE_MATCH") {
          expect(f.rules[result.reason.ruleIndex!]!.id).toBe(result.reason.ruleId)
        }
      }
    },
    runs
  )

  it.prop(
    "a disabled configuration always gives OFF with the off variation",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const disabled = { ...snap, flags: snap.flags.map((f) => ({ ...f, enabled: false })) }
      const compiled = Evaluate.compile(disabled)
      for (const f of disabled.flags) {
        const result = Evaluate.evaluate(compiled, f.key, context)
        expect(result.reason).toEqual({ kind: "OFF" })
        expect(result.variationKey).toBe(f.offVariationKey)
      }
    },
    runs
  )

  it.prop(
    "never throws on arbitrary input, and always answers with the asked flag key",
    [fc.anything(), fc.anything(), fc.string()],
    ([snap, context, key]) => {
      const compiled = Evaluate.compile(snap as ConfigSnapshot)
      expect(Evaluate.evaluate(compiled, key, context as EvaluationContext).flagKey).toBe(key)
      expect(typeof Evaluate.evaluateAll(compiled, context as EvaluationContext)).toBe("object")
    },
    { fastCheck: { numRuns: 500 } }
  )
})

describe("rollouts through the evaluator", () => {
  const rolloutFlag = (weights: ReadonlyArray<number>, key = "rollout-flag"): SnapshotFlag => ({
    key,
    type: "string",
    enabled: true,
    variations: weights.map((_, i) => ({ key: `v${i}`, value: `value-${i}` })),
    defaultVariationKey: "v0",
    offVariationKey: "v0",
    rules: [{ id: "split", conditions: [], rollout: { variations: weights.map((weight, i) => ({ variationKey: `v${i}`, weight })) } }]
  })

  it.prop(
    "growing one variation's weight while shrinking the last never moves a context out of it",
    [fc.integer({ min: 2, max: 5 }).chain((n) => weights(n)), fc.nat(), fc.nat({ max: 100_000 }), fc.string({ minLength: 1 })],
    ([ws, pick, grow, key]) => {
      const last = ws.length - 1
      const i = pick % last
      const delta = Math.min(grow, ws[last]!)
      const grown = ws.map((w, j) => (j === i ? w + delta : j === last ? w - delta : w))
      const before = Evaluate.evaluate(Evaluate.compile({ environment: "e", flags: [rolloutFlag(ws)], segments: [] }), "rollout-flag", { key })
      const after = Evaluate.evaluate(Evaluate.compile({ environment: "e", flags: [rolloutFlag(grown)], segments: [] }), "rollout-flag", { key })
      if (before.variationKey === `v${i}`) expect(after.variationKey).toBe(`v${i}`)
    },
    runs
  )

  it("over 100,000 random keys each variation's share is within 1 percentage point of its weight", () => {
    const ws = [12_500, 37_500, 1_000, 49_000]
    const compiled = Evaluate.compile({ environment: "e", flags: [rolloutFlag(ws)], segments: [] })
    const counts = new Map<string, number>()
    for (const key of fc.sample(fc.string({ minLength: 8, maxLength: 24 }), { numRuns: 100_000, seed: 7 })) {
      const v = Evaluate.evaluate(compiled, "rollout-flag", { key }).variationKey!
      counts.set(v, (counts.get(v) ?? 0) + 1)
    }
    ws.forEach((w, i) => expect(Math.abs((counts.get(`v${i}`) ?? 0) / 100_000 - w / 100_000)).toBeLessThan(0.01))
  })
})
