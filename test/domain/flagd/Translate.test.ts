/**
 * The translation, construct by construct: what each flagd construct becomes, and each reason a
 * flag is refused, with the path it names. (That the results evaluate as flagd does is
 * Parity.test.ts's job.)
 */
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import { translateDocument } from "../../../src/domain/flagd/FlagdDocument.js"
import { SAMPLE } from "./Corpus.js"
import { translations } from "./Parity.js"

const flag = (targeting: unknown, extra: Record<string, unknown> = {}) => ({
  flags: { f: { state: "ENABLED", variants: { on: true, off: false }, defaultVariant: "off", targeting, ...extra } }
})

const only = (document: unknown) => {
  const [t] = translations(document)
  if (t === undefined) throw new Error("no flag")
  return t
}

const rulesOf = (targeting: unknown, extra?: Record<string, unknown>) => {
  const t = only(flag(targeting, extra))
  if (t._tag !== "Translated") throw new Error(JSON.stringify(t.refusal))
  return { rules: t.targeting.rules, defaultVariationKey: t.targeting.defaultVariationKey }
}

const email = { var: "email" }
const c = (attribute: string, operator: string, values: ReadonlyArray<unknown>, negate?: boolean) => ({ attribute, operator, values, ...(negate ? { negate } : {}) })

describe("what each construct becomes", () => {
  const cases: ReadonlyArray<[string, unknown, unknown]> = [
    ["no targeting: the default variant", undefined, { rules: [], defaultVariationKey: "off" }],
    ["empty targeting: the default variant", {}, { rules: [], defaultVariationKey: "off" }],
    ["== with a word: in", { if: [{ "==": [email, "a@b.c"] }, "on", "off"] }, { rules: [{ conditions: [c("email", "in", ["a@b.c"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["== with the literal first", { if: [{ "==": ["a@b.c", email] }, "on", "off"] }, { rules: [{ conditions: [c("email", "in", ["a@b.c"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["== with a numeric string against the targeting key (always a string): in", { if: [{ "==": [{ var: "targetingKey" }, "123"] }, "on"] }, { rules: [{ conditions: [c("key", "in", ["123"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["=== with a number: in", { if: [{ "===": [{ var: "age" }, 3] }, "on", "off"] }, { rules: [{ conditions: [c("age", "in", [3])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["!= : the == rule serves the else branch, the rest serve the then branch", { if: [{ "!=": [email, "x"] }, "on", "off"] }, { rules: [{ conditions: [c("email", "in", ["x"])], variationKey: "off" }], defaultVariationKey: "on" }],
    ["targetingKey is the context key", { if: [{ in: [{ var: "targetingKey" }, ["u1", "u2"]] }, "on", "off"] }, { rules: [{ conditions: [c("key", "in", ["u1", "u2"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["in with a list: in", { if: [{ in: [email, ["a", "b"]] }, "on"] }, { rules: [{ conditions: [c("email", "in", ["a", "b"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["in with a substring: contains", { if: [{ in: ["@acme.com", email] }, "on"] }, { rules: [{ conditions: [c("email", "contains", ["@acme.com"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["in with an empty list: never", { if: [{ in: [email, []] }, "on"] }, { rules: [], defaultVariationKey: "off" }],
    ["starts_with", { if: [{ starts_with: [email, "adm"] }, "on"] }, { rules: [{ conditions: [c("email", "startsWith", ["adm"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["ends_with", { if: [{ ends_with: [email, ".org"] }, "on"] }, { rules: [{ conditions: [c("email", "endsWith", [".org"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["and: one rule", { if: [{ and: [{ starts_with: [email, "a"] }, { ends_with: [email, "z"] }] }, "on"] }, { rules: [{ conditions: [c("email", "startsWith", ["a"]), c("email", "endsWith", ["z"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["or: one rule with a group", { if: [{ or: [{ starts_with: [email, "a"] }, { ends_with: [email, "z"] }] }, "on"] }, { rules: [{ conditions: [{ anyOf: [[c("email", "startsWith", ["a"])], [c("email", "endsWith", ["z"])]] }], variationKey: "on" }], defaultVariationKey: "off" }],
    ["and over or: the shared condition beside the group", { if: [{ and: [{ "==": [{ var: "country" }, "DE"] }, { or: [{ starts_with: [email, "a"] }, { ends_with: [email, "z"] }] }] }, "on"] }, { rules: [{ conditions: [c("country", "in", ["DE"]), { anyOf: [[c("email", "startsWith", ["a"])], [c("email", "endsWith", ["z"])]] }], variationKey: "on" }], defaultVariationKey: "off" }],
    ["an if chain's branches serving the same variant: one rule", { if: [{ "==": [email, "a"] }, "on", { "==": [email, "b"] }, "on", { "==": [email, "c"] }, "off", "on"] }, { rules: [{ conditions: [{ anyOf: [[c("email", "in", ["a"])], [c("email", "in", ["b"])]] }], variationKey: "on" }, { conditions: [c("email", "in", ["c"])], variationKey: "off" }], defaultVariationKey: "on" }],
    ["! swaps the branches", { if: [{ "!": { starts_with: [email, "a"] } }, "on", "off"] }, { rules: [{ conditions: [c("email", "startsWith", ["a"])], variationKey: "off" }], defaultVariationKey: "on" }],
    ["!! is the condition", { if: [{ "!!": [{ starts_with: [email, "a"] }] }, "on", "off"] }, { rules: [{ conditions: [c("email", "startsWith", ["a"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["bare var: present and not false, 0 or \"\"", { if: [{ var: "beta" }, "on", "off"] }, { rules: [{ conditions: [c("beta", "notIn", [false, 0, ""])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["< where an absent attribute (0) holds: the negated rule first", { if: [{ "<": [{ var: "age" }, 18] }, "on", "off"] }, { rules: [{ conditions: [c("age", "lt", [18], true)], variationKey: "off" }], defaultVariationKey: "on" }],
    [">= where an absent attribute does not hold", { if: [{ ">=": [{ var: "age" }, 18] }, "on", "off"] }, { rules: [{ conditions: [c("age", "gte", [18])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["> with the number first flips", { if: [{ ">": [18, { var: "age" }] }, "on", "off"] }, { rules: [{ conditions: [c("age", "lt", [18], true)], variationKey: "off" }], defaultVariationKey: "on" }],
    ["between", { if: [{ "<": [1, { var: "age" }, 10] }, "on", "off"] }, { rules: [{ conditions: [c("age", "gt", [1]), c("age", "lt", [10])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["sem_ver =", { if: [{ sem_ver: [{ var: "v" }, "=", "1.2.3"] }, "on"] }, { rules: [{ conditions: [c("v", "semverEq", ["1.2.3"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["sem_ver with a v prefix and a partial version", { if: [{ sem_ver: [{ var: "v" }, ">", "v1.2"] }, "on"] }, { rules: [{ conditions: [c("v", "semverGt", ["1.2.0"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["sem_ver >=: greater or equal", { if: [{ sem_ver: [{ var: "v" }, ">=", "2.0.0"] }, "on"] }, { rules: [{ conditions: [{ anyOf: [[c("v", "semverGt", ["2.0.0"])], [c("v", "semverEq", ["2.0.0"])]] }], variationKey: "on" }], defaultVariationKey: "off" }],
    ["sem_ver ^: the major line", { if: [{ sem_ver: [{ var: "v" }, "^", "2.3.4"] }, "on"] }, { rules: [{ conditions: [c("v", "semverLt", ["2.0.0-0"], true), c("v", "semverLt", ["3.0.0-0"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["sem_ver ~: the minor line", { if: [{ sem_ver: [{ var: "v" }, "~", "2.3.4"] }, "on"] }, { rules: [{ conditions: [c("v", "semverLt", ["2.3.0-0"], true), c("v", "semverLt", ["2.4.0-0"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["sem_ver with the version first flips", { if: [{ sem_ver: ["2.0.0", "<", { var: "v" }] }, "on"] }, { rules: [{ conditions: [c("v", "semverGt", ["2.0.0"])], variationKey: "on" }], defaultVariationKey: "off" }],
    ["if chain: ordered rules", { if: [{ "==": [email, "a"] }, "on", { "==": [email, "b"] }, "off", "on"] }, { rules: [{ conditions: [c("email", "in", ["a"])], variationKey: "on" }, { conditions: [c("email", "in", ["b"])], variationKey: "off" }], defaultVariationKey: "on" }],
    ["a null branch serves the default variant", { if: [{ "==": [email, "a"] }, null, "on"] }, { rules: [{ conditions: [c("email", "in", ["a"])], variationKey: "off" }], defaultVariationKey: "on" }],
    ["a literal condition", { if: [true, "on", "off"] }, { rules: [], defaultVariationKey: "on" }],
    ["fractional by targeting key", { fractional: [["on", 1], ["off", 3]] }, { rules: [{ conditions: [], rollout: { bucketBy: "key", variations: [{ variationKey: "on", weight: 25000 }, { variationKey: "off", weight: 75000 }] } }], defaultVariationKey: "off" }],
    ["fractional by an attribute: only a string buckets", { fractional: [email, ["on", 50], ["off", 50]] }, { rules: [{ conditions: [c("email", "startsWith", [""])], rollout: { bucketBy: "email", variations: [{ variationKey: "on", weight: 50000 }, { variationKey: "off", weight: 50000 }] } }], defaultVariationKey: "off" }]
  ]
  for (const [name, targeting, expected] of cases) it(name, () => expect(rulesOf(targeting)).toEqual(expected))

  it("$ref: shared evaluators are substituted, in any order", () => {
    const document = {
      $evaluators: { outer: { or: [{ $ref: "inner" }, { "==": [{ var: "role" }, "admin"] }] }, inner: { in: ["@acme.com", email] } },
      ...flag({ if: [{ $ref: "outer" }, "on"] })
    }
    const t = only(document)
    expect(t._tag === "Translated" && t.targeting.rules).toEqual([
      { conditions: [{ anyOf: [[c("email", "contains", ["@acme.com"])], [c("role", "in", ["admin"])]] }], variationKey: "on" }
    ])
  })

  it("variants: each a variation keyed by its name, in file order; the type from the values", () => {
    const t = only({ flags: { color: { state: "ENABLED", variants: { red: "#f00", blue: "#00f" }, defaultVariant: "blue" } } })
    expect(t).toEqual({
      _tag: "Translated",
      key: "color",
      flag: { key: "color", name: "color", type: "string", variations: [{ key: "red", value: "#f00" }, { key: "blue", value: "#00f" }] },
      targeting: { enabled: true, defaultVariationKey: "blue", offVariationKey: "blue", rules: [] }
    })
    const types = [[{ a: 1, b: 2.5 }, "number"], [{ a: { x: 1 }, b: [1] }, "json"], [{ a: true, b: false }, "boolean"]] as const
    for (const [variants, type] of types) {
      const translated = only({ flags: { f: { state: "ENABLED", variants, defaultVariant: "a" } } })
      expect(translated._tag === "Translated" && translated.flag.type).toBe(type)
    }
  })

  it("metadata is accepted and not imported", () => {
    expect(only(flag(undefined, { metadata: { owner: "team-a" } }))._tag).toBe("Translated")
  })
})

describe("refusals name the construct and its path", () => {
  const cases: ReadonlyArray<[string, unknown, string, string]> = [
    ["a DISABLED flag", { flags: { f: { state: "DISABLED", variants: { on: true }, defaultVariant: "on" } } }, "flags.f.state", "caller's default value"],
    ["an unknown state", { flags: { f: { state: "ON", variants: { on: true }, defaultVariant: "on" } } }, "flags.f.state", "ENABLED"],
    ["no default variant", { flags: { f: { state: "ENABLED", variants: { on: true } } } }, "flags.f.defaultVariant", "caller's default value"],
    ["a default variant that is not a variant", { flags: { f: { state: "ENABLED", variants: { on: true }, defaultVariant: "x" } } }, "flags.f.defaultVariant", "not a variant"],
    ["variants of mixed types", { flags: { f: { state: "ENABLED", variants: { a: 1, b: "1" }, defaultVariant: "a" } } }, "flags.f.variants", "mix types"],
    ["a variant name Flagport cannot key", { flags: { f: { state: "ENABLED", variants: { "big red": 1 }, defaultVariant: "big red" } } }, `flags.f.variants["big red"]`, "variation key"],
    ["a flag key Flagport cannot key", { flags: { "new flag": { state: "ENABLED", variants: { a: 1 }, defaultVariant: "a" } } }, `flags["new flag"]`, "not a Flagport key"],
    ["an unknown field", flag(undefined, { description: "x" }), "flags.f.description", "unknown field"],
    ["a branch naming no variant", flag({ if: [true, "maybe"] }), "flags.f.targeting.if[1]", "not a variant"],
    ["a computed variant", flag({ var: "plan" }), "flags.f.targeting", "attribute's value as the variant"],
    ["a condition's value as the variant", flag({ "==": [email, "a"] }), "flags.f.targeting", "computed at evaluation time"],
    ["loose == with a number", flag({ if: [{ "==": [{ var: "age" }, 5] }, "on"] }), `flags.f.targeting.if[0]["=="][1]`, "\"5\" == 5"],
    ["loose == with a numeric string", flag({ if: [{ "==": [{ var: "age" }, "5"] }, "on"] }), `flags.f.targeting.if[0]["=="][1]`, "\"5\" == 5"],
    ["loose != with a boolean", flag({ if: [{ "!=": [{ var: "beta" }, true] }, "on"] }), `flags.f.targeting.if[0]["!="][1]`, "\"5\" == 5"],
    ["=== with null", flag({ if: [{ "===": [email, null] }, "on"] }), `flags.f.targeting.if[0]["==="][1]`, "only strings, numbers and booleans"],
    ["two attributes compared", flag({ if: [{ "==": [email, { var: "other" }] }, "on"] }), `flags.f.targeting.if[0]["=="]`, "one attribute"],
    ["a nested attribute path", flag({ if: [{ "==": [{ var: "user.email" }, "a"] }, "on"] }), `flags.f.targeting.if[0]["=="][0].var`, "Flagport attributes are flat"],
    ["var with a default", flag({ if: [{ "==": [{ var: ["email", "x"] }, "a"] }, "on"] }), `flags.f.targeting.if[0]["=="][0].var`, "default value"],
    ["the evaluation time", flag({ if: [{ ">": [{ var: "$flagd.timestamp" }, 1] }, "on"] }), `flags.f.targeting.if[0][">"][0].var`, "scheduled change"],
    ["the flag key property", flag({ if: [{ "==": [{ var: "$flagd.flagKey" }, "f"] }, "on"] }), `flags.f.targeting.if[0]["=="][0].var`, "property flagd adds"],
    ["an attribute named key", flag({ if: [{ "==": [{ var: "key" }, "a"] }, "on"] }), `flags.f.targeting.if[0]["=="][0].var`, "targeting key"],
    ["in: the attribute as a substring of a literal", flag({ if: [{ in: [email, "abc"] }, "on"] }), "flags.f.targeting.if[0].in", "membership"],
    ["in: an empty substring", flag({ if: [{ in: ["", email] }, "on"] }), "flags.f.targeting.if[0].in[0]", "empty substring"],
    ["in: an object in the list", flag({ if: [{ in: [email, [{ a: 1 }]] }, "on"] }), "flags.f.targeting.if[0].in[1][0]", "only strings"],
    ["starts_with without a string", flag({ if: [{ starts_with: [email, 3] }, "on"] }), "flags.f.targeting.if[0].starts_with[1]", "string literal"],
    ["starts_with with one argument", flag({ if: [{ starts_with: ["abc"] }, "on"] }), "flags.f.targeting.if[0].starts_with", "expects 2"],
    ["sem_ver with an unknown sign", flag({ if: [{ sem_ver: [{ var: "v" }, "===", "1.0.0"] }, "on"] }), "flags.f.targeting.if[0].sem_ver[1]", "unknown \"sem_ver\" comparison"],
    ["sem_ver with no version", flag({ if: [{ sem_ver: [{ var: "v" }, "=", "2.0.0.0"] }, "on"] }), "flags.f.targeting.if[0].sem_ver", "not a version"],
    ["sem_ver with two arguments", flag({ if: [{ sem_ver: [{ var: "v" }, "="] }, "on"] }), "flags.f.targeting.if[0].sem_ver", "expects 3"],
    ["a comparison with a string number", flag({ if: [{ "<": [{ var: "age" }, "18"] }, "on"] }), `flags.f.targeting.if[0]["<"][1]`, "number literals only"],
    ["an operator flagd does not know", flag({ invalid: ["x"] }), "flags.f.targeting", "computed at evaluation time"],
    ["missing", flag({ if: [{ missing: ["email"] }, "on"] }), "flags.f.targeting.if[0].missing", "tests absence"],
    ["cat in a condition", flag({ if: [{ "==": [{ cat: ["a", email] }, "ab"] }, "on"] }), `flags.f.targeting.if[0]["=="]`, "one attribute"],
    ["an if inside a condition", flag({ if: [{ if: [true, true, false] }, "on"] }), "flags.f.targeting.if[0].if", "rewrite it with `and`"],
    ["fractional as a condition", flag({ if: [{ fractional: [[false, 0], [true, 100]] }, "on"] }), "flags.f.targeting.if[0].fractional", "fractional imports where a branch serves it"],
    ["fractional with a computed variant", flag({ fractional: [{ var: "targetingKey" }, [{ var: "color" }, 50], ["on", 50]] }), "flags.f.targeting.fractional[1][0]", "literally"],
    ["fractional with a computed weight", flag({ fractional: [["on", { if: [true, 100, 0] }], ["off", 10]] }), "flags.f.targeting.fractional[0][1]", "integer"],
    ["fractional with weights summing to 0", flag({ fractional: [email, ["on", 0], ["off", 0]] }), "flags.f.targeting.fractional", "sum to 0"],
    ["fractional with an unknown variant", flag({ fractional: [["one", 1], ["off", 1]] }), "flags.f.targeting.fractional[0][0]", "not a variant"],
    ["fractional with a constant bucketing value", flag({ fractional: [{ cat: ["seed", email] }, ["on", 1], ["off", 1]] }), "flags.f.targeting.fractional[0]", "bucketing value"],
    ["an unknown $ref", flag({ if: [{ $ref: "nope" }, "on"] }), "flags.f.targeting.if[0].$ref", "no shared evaluator"],
    ["a $ref cycle", { $evaluators: { a: { and: [{ $ref: "a" }] } }, ...flag({ if: [{ $ref: "a" }, "on"] }) }, "flags.f.targeting.if[0].and[0].$ref", "refers to itself"]
  ]
  for (const [name, document, path, reason] of cases) {
    it(name, () => {
      const t = only(document)
      expect(t._tag).toBe("Refused")
      if (t._tag !== "Refused") return
      expect(t.refusal.path).toBe(path)
      expect(t.refusal.reason).toContain(reason)
    })
  }

  it("a rollout under a string condition on its bucketing attribute gets no fallback rule (flagd's headerColor: one rule)", () => {
    // The condition already makes `email` a string, which always buckets: a second rule with the
    // same condition serving flagd's bucket of an absent email could never match.
    const [t] = translations({ flags: { headerColor: SAMPLE.flags.headerColor }, $evaluators: SAMPLE.$evaluators })
    if (t?._tag !== "Translated") throw new Error(JSON.stringify(t))
    expect(t.targeting.rules).toEqual([
      {
        conditions: [c("email", "contains", ["@faas.com"])],
        rollout: { bucketBy: "email", variations: ["red", "blue", "green", "yellow"].map((variationKey) => ({ variationKey, weight: 25000 })) }
      }
    ])
    expect(t.targeting.defaultVariationKey).toBe("red")
    // Without such a condition the fallback stays: an absent email gets flagd's bucket of the flag
    // key alone (yellow), here as the default variation, since the rollout has no condition.
    const [bare] = translations({ flags: { headerColor: { ...SAMPLE.flags.headerColor, targeting: SAMPLE.flags.headerColor.targeting.if[1] } } })
    if (bare?._tag !== "Translated") throw new Error(JSON.stringify(bare))
    expect(bare.targeting.rules.map((r) => r.variationKey ?? "rollout")).toEqual(["rollout"])
    expect(bare.targeting.defaultVariationKey).toBe("yellow")
  })

  it("a translation past Flagport's limits is refused with the API's reason", () => {
    const many = Array.from({ length: 101 }, (_, i) => [{ "==": [email, `user${i}@x.y`] }, i % 2 === 0 ? "on" : "off"]).flat()
    const t = only(flag({ if: [...many, "off"] }))
    expect(t._tag === "Refused" && t.refusal.reason).toContain("at most 100 rules")
  })

  it("one refused flag leaves the others translated", () => {
    const all = translations({ flags: { a: { state: "DISABLED", variants: { x: 1 }, defaultVariant: "x" }, b: { state: "ENABLED", variants: { x: 1 }, defaultVariant: "x" } } })
    expect(all.map((t) => [t.key, t._tag])).toEqual([["a", "Refused"], ["b", "Translated"]])
  })
})

describe("files that are no flagd definition", () => {
  const cases: ReadonlyArray<[string, unknown, string]> = [
    ["not an object", [1], "JSON object"],
    ["no flags", { metadata: {} }, "\"flags\" must be an object"],
    ["an unknown top-level field", { flags: {}, flagz: {} }, "unknown top-level field \"flagz\""],
    ["$evaluators not an object", { flags: {}, $evaluators: [] }, "\"$evaluators\" must be an object"]
  ]
  for (const [name, document, message] of cases) {
    it(name, () => {
      const result = translateDocument(document)
      expect(Either.isLeft(result) && result.left.message).toContain(message)
    })
  }
})
