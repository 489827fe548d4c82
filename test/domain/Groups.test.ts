/**
 * OR groups (`{ "anyOf": [[Condition, ...], ...] }`): how they are decoded, validated (with paths
 * into the group), evaluated and explained.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { ConditionOrGroup, mayNameSegments, NESTED_GROUP_MESSAGE } from "../../src/domain/definitions/Condition.js"
import type { Problem } from "../../src/domain/Errors.js"
import type { EnvironmentConfig } from "../../src/domain/definitions/Targeting.js"
import * as Validation from "../../src/domain/definitions/Validation.js"
import type { SnapshotSegment } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { EvaluationContext } from "../../src/domain/evaluation/EvaluationContext.js"
import { booleanFlag, snapshot } from "./fixtures.js"

const de = { attribute: "country", operator: "in", values: ["DE"] } as const
const enterprise = { attribute: "plan", operator: "in", values: ["enterprise"] } as const
const adult = { attribute: "age", operator: "gte", values: [18] } as const
const deOrEnterprise = { anyOf: [[de, adult], [enterprise]] }

const problems = (conditions: ReadonlyArray<unknown>): ReadonlyArray<Problem> =>
  Validation.validateConditions(conditions as never, new Set(["beta"]))
const paths = (conditions: ReadonlyArray<unknown>) => problems(conditions).map((p) => p.path)
const list = (n: number) => Array.from({ length: n }, () => de)

describe("validating groups", () => {
  it("accepts a group beside conditions, and groups in a segment", () => {
    expect(problems([enterprise, deOrEnterprise, { anyOf: [[{ operator: "inSegment", values: ["beta"] }]] }])).toEqual([])
    expect(Validation.validateSegmentConditions([deOrEnterprise])).toEqual([])
  })

  it.each([
    ["a bad condition in a list", [enterprise, { anyOf: [[de], [adult, { attribute: "age", operator: "gte", values: ["18"] }]] }], ["conditions[1].anyOf[1][1].values[0]"]],
    ["a group inside a group", [{ anyOf: [[de, deOrEnterprise]] }], ["conditions[0].anyOf[0][1]"]],
    ["no lists", [{ anyOf: [] }], ["conditions[0].anyOf"]],
    ["lists that are not arrays", [{ anyOf: "DE" }], ["conditions[0].anyOf"]],
    ["an empty list", [{ anyOf: [[de], []] }], ["conditions[0].anyOf[1]"]],
    ["a list that is not an array", [{ anyOf: [[de], de] }], ["conditions[0].anyOf[1]"]],
    ["21 lists", [{ anyOf: Array.from({ length: 21 }, () => [de]) }], ["conditions[0].anyOf"]],
    ["21 conditions in a list", [{ anyOf: [[de], list(21)] }], ["conditions[0].anyOf[1]"]],
    ["negate on a group", [{ anyOf: [[de]], negate: true }], ["conditions[0].negate"]],
    ["an operator beside anyOf", [{ anyOf: [[de]], operator: "in", values: [] }], ["conditions[0].operator", "conditions[0].values"]],
    ["an unknown segment in a list", [{ anyOf: [[{ operator: "inSegment", values: ["nobody"] }]] }], ["conditions[0].anyOf[0][0].values[0]"]]
  ] as const)("refuses %s", (_, conditions, expected) => {
    expect(paths(conditions)).toEqual(expected)
  })

  it("accepts 20 lists of 20 conditions", () => {
    expect(problems([{ anyOf: Array.from({ length: 20 }, () => list(20)) }])).toEqual([])
  })

  it("says why, in the limits' words", () => {
    expect(problems([{ anyOf: Array.from({ length: 21 }, () => [de]) }])[0]!.message).toBe("must have at most 20 lists")
    expect(problems([{ anyOf: [list(21)] }])[0]!.message).toBe("must have at most 20 conditions")
    expect(problems([{ anyOf: [[deOrEnterprise]] }])[0]!.message).toBe(NESTED_GROUP_MESSAGE)
  })

  it("a segment's group cannot name a segment either", () => {
    const found = Validation.validateSegmentConditions([{ anyOf: [[de], [{ operator: "notInSegment", values: ["beta"] }]] }])
    expect(found.map((p) => p.path)).toEqual(["conditions[0].anyOf[1][0].operator"])
  })

  it("a segment named inside a group is in use", () => {
    const config: EnvironmentConfig = {
      environmentKey: "production",
      enabled: true,
      defaultVariationKey: "off",
      offVariationKey: "off",
      rules: [{ id: "r", conditions: [{ anyOf: [[de], [{ operator: "inSegment", values: ["beta"] }]] }], variationKey: "on" }]
    }
    expect([...Validation.segmentKeysInUse([config])]).toEqual(["beta"])
    expect(mayNameSegments(config.rules[0]!.conditions)).toBe(true)
    expect(mayNameSegments([deOrEnterprise, enterprise])).toBe(false)
  })
})

describe("decoding groups", () => {
  const decode = Schema.decodeUnknownEither(ConditionOrGroup)
  const message = (input: unknown): string =>
    Either.match(decode(input), { onLeft: (e) => e.message, onRight: () => "decoded" })

  it("tells a group from a condition by anyOf alone", () => {
    expect(Either.getOrThrow(decode(deOrEnterprise))).toEqual(deOrEnterprise)
    expect(Either.getOrThrow(decode(de))).toEqual(de)
  })

  it("reports a broken condition as a condition, and a group inside a group as such", () => {
    expect(message({ attribute: "country", operator: "in" })).toContain("values")
    expect(message({ attribute: "country", operator: "in" })).not.toContain("anyOf")
    expect(message({ anyOf: [[deOrEnterprise]] })).toContain(NESTED_GROUP_MESSAGE)
  })
})

const rule = { id: "de-or-enterprise", conditions: [{ attribute: "beta", operator: "exists", values: [] }, deOrEnterprise], variationKey: "on" } as const
const evaluate = (context: EvaluationContext, rules: ReadonlyArray<unknown> = [rule], segments: ReadonlyArray<SnapshotSegment> = []) => {
  const compiled = Evaluate.compile(snapshot([booleanFlag({ rules: rules as never })], segments))
  return Evaluate.evaluate(compiled, "flag", context)
}
const ctx = (attributes: Record<string, unknown>): EvaluationContext => ({ key: "user-1", attributes: { beta: true, ...attributes } })

describe("evaluating groups", () => {
  it.each([
    ["the first list matches", { country: "DE", age: 30 }, "on"],
    ["the second list matches", { plan: "enterprise" }, "on"],
    ["both match", { country: "DE", age: 30, plan: "enterprise" }, "on"],
    ["the first list only in part (AND inside a list)", { country: "DE", age: 12 }, "off"],
    ["an attribute of each list absent", { age: 30 }, "off"],
    ["the value an array with one matching element", { country: ["FR", "DE"], age: [3, 40] }, "on"],
    ["a wrong type simply does not match", { country: "DE", age: "30", plan: 1 }, "off"]
  ] as const)("%s", (_, attributes, served) => {
    expect(evaluate(ctx(attributes)).variationKey).toBe(served)
  })

  it("the group is AND-ed with the rule's other conditions", () => {
    expect(evaluate({ key: "user-1", attributes: { plan: "enterprise" } }).variationKey).toBe("off")
  })

  it("negate inverts a condition inside a list, never when its attribute is absent", () => {
    const notDe = { ...de, negate: true }
    const rules = [{ id: "r", conditions: [{ anyOf: [[notDe], [enterprise]] }], variationKey: "on" }]
    expect(evaluate({ key: "k", attributes: { country: "FR" } }, rules).variationKey).toBe("on")
    expect(evaluate({ key: "k", attributes: { country: "DE" } }, rules).variationKey).toBe("off")
    expect(evaluate({ key: "k", attributes: {} }, rules).variationKey).toBe("off")
  })

  it("segments hold groups, and groups name segments", () => {
    const segments = [{ key: "eu-or-big", conditions: [{ anyOf: [[de], [enterprise]] }] }]
    const rules = [{ id: "r", conditions: [{ anyOf: [[{ attribute: "key", operator: "in", values: ["vip"] }], [{ operator: "inSegment", values: ["eu-or-big"] }]] }], variationKey: "on" }]
    expect(evaluate({ key: "vip" }, rules, segments).variationKey).toBe("on")
    expect(evaluate({ key: "k", attributes: { plan: "enterprise" } }, rules, segments).variationKey).toBe("on")
    expect(evaluate({ key: "k", attributes: { country: "FR" } }, rules, segments).variationKey).toBe("off")
  })

  it("a group validation refuses, written into a configuration anyway, is an ERROR, not a guess", () => {
    for (const broken of [{ anyOf: [] }, { anyOf: [[]] }, { anyOf: [[deOrEnterprise]] }]) {
      expect(evaluate({ key: "k" }, [{ id: "r", conditions: [broken], variationKey: "on" }]).reason.kind).toBe("ERROR")
    }
  })
})

describe("explaining groups", () => {
  it("records each list tried, up to the one that matched, and its index", () => {
    const compiled = Evaluate.compile(snapshot([booleanFlag({ rules: [rule as never] })]))
    const context = ctx({ country: "DE", age: 12, plan: "enterprise" })
    const { result, trace } = Evaluate.explain(compiled, "flag", context)
    expect(result).toEqual(Evaluate.evaluate(compiled, "flag", context))
    expect(trace.rules[0]!.conditions[1]).toEqual({
      anyOf: [
        {
          matched: false,
          conditions: [
            { attribute: "country", operator: "in", values: ["DE"], negate: false, absent: false, value: "DE", matched: true },
            { attribute: "age", operator: "gte", values: [18], negate: false, absent: false, value: 12, matched: false }
          ]
        },
        { matched: true, conditions: [{ attribute: "plan", operator: "in", values: ["enterprise"], negate: false, absent: false, value: "enterprise", matched: true }] }
      ],
      matched: true,
      matchedList: 1
    })
  })

  it("says no list matched with matchedList null", () => {
    const compiled = Evaluate.compile(snapshot([booleanFlag({ rules: [rule as never] })]))
    const group = Evaluate.explain(compiled, "flag", ctx({})).trace.rules[0]!.conditions[1]
    expect(group).toMatchObject({ matched: false, matchedList: null })
    expect((group as { anyOf: ReadonlyArray<unknown> }).anyOf).toHaveLength(2)
  })
})
