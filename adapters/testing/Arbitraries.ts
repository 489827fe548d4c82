/**
 * `flagport/testing`: fast-check arbitraries for Flagport's configuration snapshots (the body of
 * `GET /v1/config`, what `Evaluate.compile` takes), flags and evaluation contexts, so code that
 * evaluates flags can be property-tested without learning the snapshot's shape first.
 * fast-check is an optional peer dependency: install it (`npm install -D fast-check`) to use this
 * entry.
 *
 * Every generated flag and snapshot is valid: it passes the checks the server makes before it
 * stores a definition (test/testing/Arbitraries.test.ts), so a property speaks about definitions a
 * Flagport could really serve. Conditions and contexts draw attribute names and values from the
 * same small pools, so rules match often enough to exercise every path of the evaluator.
 */
import fc from "fast-check"
import type { FlagType } from "../../src/domain/definitions/Flag.js"
import type { Condition, ConditionOrGroup, Rule } from "../../src/domain/definitions/Targeting.js"
import type { ConfigSnapshot, SnapshotFlag, SnapshotSegment } from "../../src/domain/evaluation/ConfigSnapshot.js"
import type { EvaluationContext } from "../../src/domain/evaluation/EvaluationContext.js"

/** The attributes conditions read and contexts carry unless told otherwise. */
export const DEFAULT_ATTRIBUTES: ReadonlyArray<string> = ["country", "plan", "age", "email", "version", "signup", "tags"]

export interface SnapshotOptions {
  /** The flags' keys (default `f0`, `f1`, `f2`). */
  readonly flagKeys?: ReadonlyArray<string>
  /** The segments' keys (default `seg-a`, `seg-b`); `[]` for none. */
  readonly segmentKeys?: ReadonlyArray<string>
  /** The attribute names conditions read (default `DEFAULT_ATTRIBUTES`; `key` is always among them). */
  readonly attributes?: ReadonlyArray<string>
  readonly environment?: string
}

export interface FlagOptions {
  /** One type (default: any of the four). */
  readonly type?: FlagType
  /** Segments the flag's conditions may name (default none). */
  readonly segmentKeys?: ReadonlyArray<string>
  readonly attributes?: ReadonlyArray<string>
}

export interface ContextOptions {
  /**
   * Each attribute a context may carry, with its values (default: `DEFAULT_ATTRIBUTES`, each with
   * the values conditions are drawn from). A context carries any subset of them.
   */
  readonly attributes?: Readonly<Record<string, fc.Arbitrary<unknown>>>
  /** The context keys (default: short strings, sometimes one a condition names). */
  readonly key?: fc.Arbitrary<string>
}

const text = fc.constantFrom("US", "DE", "pro", "free", "beta", "a@example.com", "b@test.org", "1.2.3", "2.0.0-rc.1", "2026-01-01T00:00:00Z", "")
const number = fc.oneof(fc.integer({ min: -5, max: 100 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }))
const date = fc.oneof(fc.constantFrom("2026-01-01T00:00:00Z", "2020-06-30"), fc.integer({ min: 0, max: 2e12 }))
const semver = fc.constantFrom("1.2.3", "2.0.0-rc.1", "0.0.1")

/** A value an attribute may hold: the pools conditions draw from, booleans, null, arrays and JSON. */
export const arbitraryAttributeValue: fc.Arbitrary<unknown> = fc.oneof(
  text,
  number,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(text, number), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 })
)

const ATTRIBUTE_OPERATORS = ["in", "notIn", "contains", "startsWith", "endsWith", "matches", "lt", "lte", "gt", "gte", "before", "after", "semverEq", "semverLt", "semverGt", "exists"] as const
type AttributeOperator = (typeof ATTRIBUTE_OPERATORS)[number]

const valuesFor = (operator: AttributeOperator): fc.Arbitrary<ReadonlyArray<unknown>> => {
  const some = <A>(values: fc.Arbitrary<A>, maxLength = 3) => fc.array(values, { minLength: 1, maxLength })
  switch (operator) {
    case "in":
    case "notIn":
      return some(fc.oneof(text, number, fc.boolean()), 4)
    case "contains":
    case "startsWith":
    case "endsWith":
      return some(text)
    case "matches":
      return some(fc.constantFrom("^US$", "example\\.com$", "^\\d+$", "[a-z]+", "^(pro|free|beta)$"), 2)
    case "lt":
    case "lte":
    case "gt":
    case "gte":
      return some(number)
    case "before":
    case "after":
      return some(date, 2)
    case "semverEq":
    case "semverLt":
    case "semverGt":
      return some(semver, 2)
    case "exists":
      return fc.constant([])
  }
}

/** A condition on one of `attributes` (or the context `key`) with values its operator accepts. */
export const arbitraryCondition = (attributes: ReadonlyArray<string> = DEFAULT_ATTRIBUTES): fc.Arbitrary<Condition> =>
  fc
    .tuple(fc.constantFrom("key", ...attributes), fc.constantFrom(...ATTRIBUTE_OPERATORS), fc.boolean())
    .chain(([attribute, operator, negate]) => valuesFor(operator).map((values): Condition => ({ attribute, operator, values, negate })))

const segmentCondition = (segmentKeys: ReadonlyArray<string>): fc.Arbitrary<Condition> =>
  fc
    .tuple(fc.constantFrom("inSegment" as const, "notInSegment" as const), fc.subarray([...segmentKeys], { minLength: 1 }), fc.boolean())
    .map(([operator, values, negate]) => ({ operator, values, negate }))

/** A group (`anyOf`) of 1 to 3 lists of 1 to 3 conditions drawn from `condition`. */
const groupOf = (condition: fc.Arbitrary<Condition>): fc.Arbitrary<ConditionOrGroup> =>
  fc.array(fc.array(condition, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf }))

/** An item of `conditions`: mostly a condition, sometimes a group of them. */
const conditionOrGroup = (condition: fc.Arbitrary<Condition>): fc.Arbitrary<ConditionOrGroup> =>
  fc.oneof({ weight: 4, arbitrary: condition }, { weight: 1, arbitrary: groupOf(condition) })

const valueOf = (type: FlagType): fc.Arbitrary<unknown> =>
  type === "boolean" ? fc.boolean() : type === "string" ? fc.string() : type === "number" ? number : fc.jsonValue({ maxDepth: 2 })

/** Rollout weights: `n` whole numbers summing to exactly 100 000. */
const weights = (n: number): fc.Arbitrary<Array<number>> =>
  fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
    const sorted = [...cuts].sort((a, b) => a - b)
    return [...sorted, 100_000].map((cut, i) => cut - (i === 0 ? 0 : sorted[i - 1]!))
  })

/**
 * A valid flag named `key`: up to four variations of its type, up to four rules (a variation or a
 * percentage rollout each) of up to three conditions, some of them groups (`anyOf`).
 */
export const arbitraryFlag = (key: string, options: FlagOptions = {}): fc.Arbitrary<SnapshotFlag> => {
  const segmentKeys = options.segmentKeys ?? []
  const condition = segmentKeys.length === 0
    ? arbitraryCondition(options.attributes)
    : fc.oneof({ weight: 4, arbitrary: arbitraryCondition(options.attributes) }, { weight: 1, arbitrary: segmentCondition(segmentKeys) })
  const type = options.type === undefined ? fc.constantFrom<FlagType>("boolean", "string", "number", "json") : fc.constant(options.type)
  return type.chain((flagType) =>
    fc.uniqueArray(fc.constantFrom("v0", "v1", "v2", "v3"), { minLength: 1, maxLength: 4 }).chain((keys) => {
      const variationKey = fc.constantFrom(...keys)
      const serve = fc.oneof(
        variationKey.map((variation) => ({ variationKey: variation })),
        fc
          .tuple(fc.subarray(keys, { minLength: 1 }), fc.option(fc.constantFrom("key", ...(options.attributes ?? DEFAULT_ATTRIBUTES)), { nil: undefined }), fc.option(fc.string(), { nil: undefined }))
          .chain(([slices, bucketBy, seed]) =>
            weights(slices.length).map((ws) => ({
              rollout: {
                ...(bucketBy === undefined ? {} : { bucketBy }),
                ...(seed === undefined ? {} : { seed }),
                variations: slices.map((variation, i) => ({ variationKey: variation, weight: ws[i]! }))
              }
            }))
          )
      )
      const rule = (id: string): fc.Arbitrary<Rule> =>
        fc.tuple(fc.array(conditionOrGroup(condition), { maxLength: 3 }), serve).map(([conditions, served]) => ({ id, conditions, ...served }))
      return fc.record({
        key: fc.constant(key),
        type: fc.constant(flagType),
        enabled: fc.boolean(),
        variations: fc.tuple(...keys.map((k) => valueOf(flagType).map((value) => ({ key: k, value })))),
        defaultVariationKey: variationKey,
        offVariationKey: variationKey,
        rules: fc.integer({ min: 0, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => rule(`r${i}`))))
      })
    })
  )
}

/** A valid configuration snapshot: one flag per key of `flagKeys`, segments their conditions may name. */
export const arbitrarySnapshot = (options: SnapshotOptions = {}): fc.Arbitrary<ConfigSnapshot> => {
  const segmentKeys = options.segmentKeys ?? ["seg-a", "seg-b"]
  const segments: fc.Arbitrary<Array<SnapshotSegment>> = fc.tuple(
    ...segmentKeys.map((key) => fc.array(conditionOrGroup(arbitraryCondition(options.attributes)), { maxLength: 2 }).map((conditions) => ({ key, conditions })))
  )
  const flags = fc.tuple(...(options.flagKeys ?? ["f0", "f1", "f2"]).map((key) => arbitraryFlag(key, { segmentKeys, ...(options.attributes === undefined ? {} : { attributes: options.attributes }) })))
  return fc.tuple(flags, segments).map(([generated, segmentList]) => ({ environment: options.environment ?? "production", flags: generated, segments: segmentList }))
}

/** An evaluation context: a key and any subset of the attributes. */
export const arbitraryContext = (options: ContextOptions = {}): fc.Arbitrary<EvaluationContext> => {
  const attributes = options.attributes ?? Object.fromEntries(DEFAULT_ATTRIBUTES.map((name) => [name, arbitraryAttributeValue]))
  return fc.record({
    key: options.key ?? fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom("US", "pro", "user-1")),
    attributes: fc.record(attributes, { requiredKeys: [] })
  })
}
