import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Bucketing from "../../src/domain/evaluation/Bucketing.js"
import type { SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { EvaluationContext } from "../../src/domain/evaluation/EvaluationContext.js"
import type { Rule } from "../../src/domain/definitions/Targeting.js"
import { booleanFlag, snapshot } from "./fixtures.js"

const evaluate = (flag: SnapshotFlag, context: EvaluationContext = { key: "user-1" }, segments: ReadonlyArray<never> = []) =>
  Evaluate.evaluate(Evaluate.compile(snapshot([flag], segments)), flag.key, context)

const stringFlag = (rules: ReadonlyArray<Rule>, overrides: Partial<SnapshotFlag> = {}): SnapshotFlag => ({
  key: "checkout",
  type: "string",
  enabled: true,
  variations: [
    { key: "A", value: "a" },
    { key: "B", value: "b" },
    { key: "C", value: "c" }
  ],
  defaultVariationKey: "C",
  offVariationKey: "B",
  rules,
  ...overrides
})

const country = (values: ReadonlyArray<string>) => ({ attribute: "country", operator: "in" as const, values })

describe("evaluation reasons", () => {
  it("disabled -> OFF with the off variation", () => {
    expect(evaluate(stringFlag([{ id: "all", conditions: [], variationKey: "A" }], { enabled: false }))).toEqual({
      flagKey: "checkout",
      value: "b",
      variationKey: "B",
      reason: { kind: "OFF" }
    })
  })

  it("a freshly created flag (disabled) serves its off variation", () => {
    expect(evaluate(booleanFlag({ enabled: false, defaultVariationKey: "on", offVariationKey: "off" })).value).toBe(false)
  })

  it("enabled, no rules -> FALLTHROUGH with the default variation", () => {
    expect(evaluate(stringFlag([]))).toEqual({ flagKey: "checkout", value: "c", variationKey: "C", reason: { kind: "FALLTHROUGH" } })
  })

  it("enabled, no rule matches -> FALLTHROUGH", () => {
    expect(evaluate(stringFlag([{ id: "us", conditions: [country(["US"])], variationKey: "A" }]), { key: "k", attributes: { country: "DE" } }).reason).toEqual({
      kind: "FALLTHROUGH"
    })
  })

  it("a matching rule -> RULE_MATCH with ruleId and its 0-based ruleIndex", () => {
    const flag = stringFlag([
      { id: "us", conditions: [country(["US"])], variationKey: "A" },
      { id: "de", conditions: [country(["DE"])], variationKey: "B" }
    ])
    expect(evaluate(flag, { key: "k", attributes: { country: "DE" } })).toEqual({
      flagKey: "checkout",
      value: "b",
      variationKey: "B",
      reason: { kind: "RULE_MATCH", ruleId: "de", ruleIndex: 1 }
    })
  })

  it("the first matching rule decides", () => {
    const flag = stringFlag([
      { id: "first", conditions: [country(["DE"])], variationKey: "A" },
      { id: "second", conditions: [country(["DE"])], variationKey: "B" }
    ])
    expect(evaluate(flag, { key: "k", attributes: { country: "DE" } }).reason).toEqual({ kind: "RULE_MATCH", ruleId: "first", ruleIndex: 0 })
  })

  it("all conditions of a rule must match (AND); no conditions match everyone", () => {
    const flag = stringFlag([
      { id: "both", conditions: [country(["US"]), { attribute: "plan", operator: "in", values: ["pro"] }], variationKey: "A" },
      { id: "everyone", conditions: [], variationKey: "B" }
    ])
    expect(evaluate(flag, { key: "k", attributes: { country: "US", plan: "pro" } }).variationKey).toBe("A")
    expect(evaluate(flag, { key: "k", attributes: { country: "US", plan: "free" } }).reason).toEqual({ kind: "RULE_MATCH", ruleId: "everyone", ruleIndex: 1 })
    expect(evaluate(flag, { key: "k" }).variationKey).toBe("B")
  })
})

describe("percentage rollouts", () => {
  const rollout = (extra: Record<string, unknown> = {}): Rule => ({
    id: "split",
    conditions: [],
    rollout: { variations: [{ variationKey: "A", weight: 30_000 }, { variationKey: "B", weight: 70_000 }], ...extra }
  })
  const expected = (seed: string, value: string) => (Bucketing.bucket(seed, value) < 30_000 ? "A" : "B")

  it("buckets by key with the flag key as seed by default, exactly as the contract's formula", () => {
    const flag = stringFlag([rollout()])
    for (let i = 0; i < 200; i++) {
      const result = evaluate(flag, { key: `user-${i}` })
      expect(result.variationKey).toBe(expected("checkout", `user-${i}`))
      expect(result.reason).toEqual({ kind: "RULE_MATCH", ruleId: "split", ruleIndex: 0 })
    }
  })

  it("uses rollout.seed when given, and bucketBy reads an attribute", () => {
    const flag = stringFlag([rollout({ seed: "exp-2026", bucketBy: "org" })])
    for (let i = 0; i < 100; i++) {
      expect(evaluate(flag, { key: "same-user", attributes: { org: `org-${i}` } }).variationKey).toBe(expected("exp-2026", `org-${i}`))
    }
  })

  it("a numeric bucketBy value is hashed in its JSON form", () => {
    const flag = stringFlag([rollout({ bucketBy: "orgId" })])
    for (const n of [0, 42, 3.5, -7, 1e21]) {
      expect(evaluate(flag, { key: "k", attributes: { orgId: n } }).variationKey).toBe(expected("checkout", JSON.stringify(n)))
    }
  })

  it("the golden vectors hold through the evaluator", () => {
    // new-checkout.alice -> bucket 53957; new-checkout.bob -> 10491 (test/fixtures/bucketing-vectors.json)
    const flag = stringFlag(
      [{ id: "r", conditions: [], rollout: { variations: [{ variationKey: "A", weight: 53_957 }, { variationKey: "B", weight: 1 }, { variationKey: "C", weight: 46_042 }] } }],
      { key: "new-checkout" }
    )
    expect(evaluate(flag, { key: "alice" }).variationKey).toBe("B")
    expect(evaluate(flag, { key: "bob" }).variationKey).toBe("A")
  })

  it.prop(
    "serves the slice the contract's walk over the weights picks, for any weights and key",
    [fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), fc.string({ unit: "binary" })],
    ([x, y, key]) => {
      const [lo, hi] = x <= y ? [x, y] : [y, x]
      const weights = [lo, hi - lo, 100_000 - hi]
      const flag = stringFlag([
        { id: "r", conditions: [], rollout: { variations: weights.map((weight, i) => ({ variationKey: "ABC"[i]!, weight })) } }
      ])
      const slice = Bucketing.sliceIndex(Bucketing.cumulativeWeights(weights), Bucketing.bucket("checkout", key))
      expect(evaluate(flag, { key }).variationKey).toBe("ABC"[slice])
    }
  )

  it("an absent or non-string, non-number bucketBy attribute: the rule does not match, the next is tried", () => {
    const flag = stringFlag([rollout({ bucketBy: "org" }), { id: "next", conditions: [], variationKey: "C" }])
    for (const attributes of [{}, { org: true }, { org: null }, { org: { id: 1 } }, { org: ["x"] }]) {
      expect(evaluate(flag, { key: "k", attributes }).reason).toEqual({ kind: "RULE_MATCH", ruleId: "next", ruleIndex: 1 })
    }
    expect(evaluate(stringFlag([rollout({ bucketBy: "org" })]), { key: "k" }).reason.kind).toBe("FALLTHROUGH")
  })

  it("zero-weight slices are never served", () => {
    const flag = stringFlag([
      { id: "r", conditions: [], rollout: { variations: [{ variationKey: "A", weight: 0 }, { variationKey: "B", weight: 100_000 }, { variationKey: "C", weight: 0 }] } }
    ])
    for (let i = 0; i < 200; i++) expect(evaluate(flag, { key: `u${i}` }).variationKey).toBe("B")
  })
})

describe("ERROR results", () => {
  it("an unknown flag: value null, variationKey null, FLAG_NOT_FOUND", () => {
    const result = Evaluate.evaluate(Evaluate.compile(snapshot([])), "ghost", { key: "k" })
    expect(result.flagKey).toBe("ghost")
    expect(result.value).toBeNull()
    expect(result.variationKey).toBeNull()
    expect(result.reason.kind).toBe("ERROR")
    expect(result.reason.error).toMatch(/^FLAG_NOT_FOUND: /)
  })

  it.each([
    ["a missing segment", stringFlag([{ id: "r", conditions: [{ operator: "inSegment", values: ["ghost"] }], variationKey: "A" }]), /^SEGMENT_NOT_FOUND: rule "r"/],
    ["a rule naming an unknown variation", stringFlag([{ id: "r", conditions: [], variationKey: "Z" }]), /^VARIATION_NOT_FOUND: rule "r"/],
    ["an unknown default variation", stringFlag([], { defaultVariationKey: "Z" }), /^VARIATION_NOT_FOUND: the default/],
    [
      "a rollout naming an unknown variation",
      stringFlag([{ id: "r", conditions: [], rollout: { variations: [{ variationKey: "Z", weight: 100_000 }] } }]),
      /^VARIATION_NOT_FOUND: rule "r" rollout/
    ],
    [
      "rollout weights not summing to 100000",
      stringFlag([{ id: "r", conditions: [], rollout: { variations: [{ variationKey: "A", weight: 10 }] } }]),
      /^INVALID_DEFINITION: rule "r" rollout weights sum to 10/
    ],
    ["a rule with both variationKey and rollout", stringFlag([{ id: "r", conditions: [], variationKey: "A", rollout: { variations: [] } }]), /exactly one/],
    ["an unknown operator", stringFlag([{ id: "r", conditions: [{ attribute: "a", operator: "like" as never, values: [] }], variationKey: "A" }]), /unknown operator/],
    ["a variation value of the wrong type", stringFlag([], { variations: [{ key: "A", value: 1 }, { key: "B", value: "b" }, { key: "C", value: "c" }] }), /wrong type/]
  ])("%s: ERROR with the off variation", (_, flag, error) => {
    const result = evaluate(flag)
    expect(result.reason.kind).toBe("ERROR")
    expect(result.reason.error).toMatch(error)
    expect(result.variationKey).toBe("B")
    expect(result.value).toBe("b")
    expect(Object.keys(result.reason)).toEqual(["kind", "error"])
  })

  it("a segment whose own conditions reference a segment cannot be evaluated", () => {
    const flag = stringFlag([{ id: "r", conditions: [{ operator: "inSegment", values: ["outer"] }], variationKey: "A" }])
    const segments = [
      { key: "outer", conditions: [{ operator: "inSegment", values: ["inner"] }] },
      { key: "inner", conditions: [] }
    ]
    const result = evaluate(flag, { key: "k" }, segments as never)
    expect(result.reason.kind).toBe("ERROR")
    expect(result.reason.error).toMatch(/segment "outer" cannot be evaluated/)
  })

  it("without an off variation the ERROR value is null", () => {
    const result = evaluate(stringFlag([{ id: "r", conditions: [], variationKey: "Z" }], { offVariationKey: "gone" }))
    expect(result).toMatchObject({ value: null, variationKey: null, reason: { kind: "ERROR" } })
  })

  it("a disabled flag whose off variation is missing is an ERROR with value null", () => {
    expect(evaluate(stringFlag([], { enabled: false, offVariationKey: "gone" }))).toMatchObject({ value: null, variationKey: null, reason: { kind: "ERROR" } })
  })

  it("a disabled flag with broken rules still serves OFF (rules are not consulted)", () => {
    expect(evaluate(stringFlag([{ id: "r", conditions: [], variationKey: "Z" }], { enabled: false })).reason).toEqual({ kind: "OFF" })
  })

  it("a context that is not an object, or whose key is not a string, is an ERROR, not an exception", () => {
    const compiled = Evaluate.compile(snapshot([stringFlag([])]))
    for (const context of [null, undefined, 42, "k", { key: 1 }, { key: null }]) {
      const result = Evaluate.evaluate(compiled, "checkout", context as never)
      expect(result.reason.kind).toBe("ERROR")
      expect(result.reason.error).toMatch(/^INVALID_CONTEXT/)
    }
  })

  it("an absent key is evaluated as absent: conditions on key and rollouts by key do not match", () => {
    const rollout = { id: "half", conditions: [], rollout: { variations: [{ variationKey: "A", weight: 100_000 }] } }
    const flag = stringFlag([
      { id: "vip", conditions: [{ attribute: "key", operator: "in", values: ["u"] }], variationKey: "A" },
      { id: "not-vip", conditions: [{ attribute: "key", operator: "notIn", values: ["u"] }], variationKey: "A" },
      rollout as Rule,
      { id: "de", conditions: [country(["DE"])], variationKey: "B" }
    ])
    const compiled = Evaluate.compile(snapshot([flag]))
    expect(Evaluate.evaluate(compiled, "checkout", { attributes: { country: "DE" } })).toMatchObject({ variationKey: "B", reason: { kind: "RULE_MATCH", ruleId: "de" } })
    expect(Evaluate.evaluate(compiled, "checkout", {}).reason).toEqual({ kind: "FALLTHROUGH" })
    expect(Evaluate.evaluate(compiled, "checkout", { key: undefined }).reason).toEqual({ kind: "FALLTHROUGH" })
  })

  it("attributes that are not an object are ignored", () => {
    for (const attributes of [null, 3, "x", [1, 2]]) {
      expect(evaluate(stringFlag([{ id: "r", conditions: [country(["US"])], variationKey: "A" }]), { key: "k", attributes } as never).reason.kind).toBe("FALLTHROUGH")
      expect(evaluate(stringFlag([{ id: "r", conditions: [{ attribute: "length", operator: "exists", values: [] }], variationKey: "A" }]), { key: "k", attributes } as never).reason.kind).toBe("FALLTHROUGH")
    }
  })
})

describe("totality", () => {
  const hostile = new Proxy(
    {},
    {
      get: () => {
        throw new Error("boom")
      },
      has: () => {
        throw new Error("boom")
      },
      getOwnPropertyDescriptor: () => {
        throw new Error("boom")
      }
    }
  )

  it("compile never throws, whatever the input", () => {
    for (const input of [null, undefined, 1, "x", [], {}, { flags: "x" }, { flags: [null, 1, { key: 3 }, { key: "k" }] }, hostile, { environment: "e", flags: [hostile], segments: [hostile] }]) {
      expect(() => Evaluate.compile(input as never)).not.toThrow()
    }
  })

  it("evaluate, evaluateAll and hasFlag never throw, whatever the input", () => {
    const good = Evaluate.compile(snapshot([stringFlag([{ id: "r", conditions: [country(["US"])], variationKey: "A" }])]))
    for (const compiled of [good, null, undefined, {}, hostile, Evaluate.compile(hostile as never)]) {
      for (const context of [{ key: "k" }, { key: "k", attributes: hostile }, hostile, null]) {
        expect(Evaluate.evaluate(compiled as never, "checkout", context as never).flagKey).toBe("checkout")
        expect(() => Evaluate.evaluateAll(compiled as never, context as never)).not.toThrow()
        expect(typeof Evaluate.hasFlag(compiled as never, "checkout")).toBe("boolean")
      }
    }
    expect(Evaluate.evaluate(good, "checkout", { key: "k", attributes: hostile } as never).reason.error).toMatch(/^EVALUATION_FAILED/)
  })

  it("a flag with a malformed shape becomes an ERROR flag; the others still evaluate", () => {
    const compiled = Evaluate.compile({
      environment: "production",
      flags: [{ key: "broken", type: "string", enabled: true, variations: "nope" } as never, stringFlag([])],
      segments: []
    })
    const all = Evaluate.evaluateAll(compiled, { key: "k" })
    expect(Object.keys(all)).toEqual(["broken", "checkout"])
    expect(all.broken!.reason.kind).toBe("ERROR")
    expect(all.checkout!.reason.kind).toBe("FALLTHROUGH")
  })
})

describe("compiled snapshot", () => {
  it("exposes the environment, hasFlag, and evaluateAll covers every flag in snapshot order", () => {
    const flags = ["b", "a", "c"].map((key) => booleanFlag({ key }))
    const compiled = Evaluate.compile(snapshot(flags))
    expect(compiled.environment).toBe("production")
    expect(Evaluate.hasFlag(compiled, "a")).toBe(true)
    expect(Evaluate.hasFlag(compiled, "z")).toBe(false)
    const all = Evaluate.evaluateAll(compiled, { key: "k" })
    expect(Object.keys(all)).toEqual(["b", "a", "c"])
    expect(all.a).toEqual(Evaluate.evaluate(compiled, "a", { key: "k" }))
  })

  it("a flag keyed __proto__ is an ordinary entry of evaluateAll", () => {
    const all = Evaluate.evaluateAll(Evaluate.compile(snapshot([booleanFlag({ key: "__proto__" })])), { key: "k" })
    expect(Object.keys(all)).toEqual(["__proto__"])
    expect(Object.getPrototypeOf(all)).toBe(Object.prototype)
  })

  it("evaluateAll's generated record and the plain loop agree, whatever the keys", () => {
    const keys = ["a", 'quo"te', "back\\slash", "line\u2028sep", '"}; throw new Error("injected"); //', "123", "constructor", "toString"]
    const flags = keys.map((key, i) => booleanFlag({ key, enabled: i % 2 === 0 }))
    const compiled = Evaluate.compile(snapshot(flags))
    expect(compiled.record).not.toBeNull()
    const context = { key: "k" }
    const generated = Evaluate.evaluateAll(compiled, context)
    const looped = Evaluate.evaluateAll({ ...compiled, record: null }, context)
    expect(generated).toEqual(looped)
    expect(Object.keys(generated)).toEqual(Object.keys(looped))
    expect(Object.keys(generated).sort()).toEqual([...keys].sort())
    for (const key of keys) expect(generated[key]).toEqual(Evaluate.evaluate(compiled, key, context))
  })

  it("results are frozen and independent of the snapshot they were compiled from", () => {
    const flag = {
      key: "config",
      type: "json" as const,
      enabled: true,
      variations: [{ key: "v1", value: { limits: [1, 2] } }],
      defaultVariationKey: "v1",
      offVariationKey: "v1",
      rules: []
    }
    const compiled = Evaluate.compile(snapshot([flag]))
    ;(flag.variations[0]!.value as { limits: Array<number> }).limits.push(3)
    const result = Evaluate.evaluate(compiled, "config", { key: "k" })
    expect(result.value).toEqual({ limits: [1, 2] })
    expect(Object.isFrozen(result)).toBe(true)
    expect(Object.isFrozen((result.value as { limits: Array<number> }).limits)).toBe(true)
  })
})
