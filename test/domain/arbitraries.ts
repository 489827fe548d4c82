/**
 * Generators of valid definitions and contexts for the evaluation property tests (each generated
 * definition passes `Validation`, which Evaluate.property.test.ts checks).
 */
import { FastCheck as fc } from "effect"
import type { ConfigSnapshot, SnapshotFlag, SnapshotSegment } from "../../src/domain/evaluation/ConfigSnapshot.js"
import type { EvaluationContext } from "../../src/domain/evaluation/EvaluationContext.js"
import type { FlagType } from "../../src/domain/definitions/Flag.js"
import type { Condition, ConditionOrGroup, Operator, Rule } from "../../src/domain/definitions/Targeting.js"

export const ATTRIBUTES = ["key", "country", "plan", "age", "email", "version", "signup", "tags"] as const
export const SEGMENT_KEYS = ["seg-a", "seg-b"] as const

export const stringValue = fc.constantFrom("US", "DE", "pro", "free", "a@example.com", "b@test.org", "1.2.3", "2.0.0-rc.1", "2026-01-01T00:00:00Z", "")
export const numberValue = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }))
export const attributeValue: fc.Arbitrary<unknown> = fc.oneof(
  stringValue,
  numberValue,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(stringValue, numberValue), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 })
)

export const attributeCondition: fc.Arbitrary<Condition> = fc
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

export const segmentCondition: fc.Arbitrary<Condition> = fc
  .tuple(fc.constantFrom("inSegment" as const, "notInSegment" as const), fc.subarray([...SEGMENT_KEYS], { minLength: 1 }), fc.boolean())
  .map(([operator, values, negate]) => ({ operator, values, negate }))

/** A group (`anyOf`) of 1 to 3 lists of 1 to 3 conditions drawn from `condition`. */
export const groupOf = (condition: fc.Arbitrary<Condition>): fc.Arbitrary<ConditionOrGroup> =>
  fc.array(fc.array(condition, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf }))

/** An item of `conditions`: mostly a condition, sometimes a group of them. */
export const conditionOrGroup = (condition: fc.Arbitrary<Condition>): fc.Arbitrary<ConditionOrGroup> =>
  fc.oneof({ weight: 3, arbitrary: condition }, { weight: 1, arbitrary: groupOf(condition) })

export const valueOf = (type: FlagType): fc.Arbitrary<unknown> =>
  type === "boolean" ? fc.boolean() : type === "string" ? fc.string() : type === "number" ? numberValue : fc.jsonValue({ maxDepth: 2 })

/** Weights summing to exactly 100000 over `n` slices. */
export const weights = (n: number): fc.Arbitrary<Array<number>> =>
  fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
    const sorted = [...cuts].sort((a, b) => a - b)
    return [...sorted, 100_000].map((c, i) => c - (i === 0 ? 0 : sorted[i - 1]!))
  })

export const flagArbitrary = (key: string): fc.Arbitrary<SnapshotFlag> =>
  fc.constantFrom<FlagType>("boolean", "string", "number", "json").chain((type) =>
    fc.uniqueArray(fc.constantFrom("v0", "v1", "v2", "v3"), { minLength: 1, maxLength: 4 }).chain((keys) => {
      const variationKey = fc.constantFrom(...keys)
      const rule = (id: string): fc.Arbitrary<Rule> =>
        fc
          .tuple(
            fc.array(conditionOrGroup(fc.oneof({ weight: 4, arbitrary: attributeCondition }, { weight: 1, arbitrary: segmentCondition })), { maxLength: 3 }),
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

export const segmentsArbitrary: fc.Arbitrary<Array<SnapshotSegment>> = fc.tuple(
  ...SEGMENT_KEYS.map((key) => fc.array(conditionOrGroup(attributeCondition), { maxLength: 2 }).map((conditions) => ({ key, conditions })))
)

export const snapshotArbitrary: fc.Arbitrary<ConfigSnapshot> = fc
  .tuple(flagArbitrary("f0"), flagArbitrary("f1"), flagArbitrary("f2"), segmentsArbitrary)
  .map(([a, b, c, segments]) => ({ environment: "production", flags: [a, b, c], segments }))

export const contextArbitrary: fc.Arbitrary<EvaluationContext> = fc.record({
  key: fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("US", "pro", "user-1")),
  attributes: fc.dictionary(fc.constantFrom(...ATTRIBUTES.filter((a) => a !== "key")), attributeValue, { maxKeys: 6 })
})
