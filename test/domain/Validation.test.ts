import { describe, expect, it } from "@effect/vitest"
import type { Problem } from "../../src/domain/Errors.js"
import type { FlagType, Variation } from "../../src/domain/definitions/Flag.js"
import type { Condition, EnvironmentConfig, RuleInput, TargetingInput } from "../../src/domain/definitions/Targeting.js"
import * as Validation from "../../src/domain/definitions/Validation.js"

const paths = (problems: ReadonlyArray<Problem>) => problems.map((p) => p.path)

describe("validateVariations", () => {
  it.each([
    ["boolean", [{ key: "on", value: true }, { key: "off", value: false }], []],
    ["boolean", [{ key: "on", value: "true" }], ["variations[0].value"]],
    ["boolean", [{ key: "on", value: 1 }], ["variations[0].value"]],
    ["string", [{ key: "a", value: "x" }, { key: "b", value: 2 }], ["variations[1].value"]],
    ["number", [{ key: "a", value: 1.5 }, { key: "b", value: -3 }], []],
    ["number", [{ key: "a", value: "1" }, { key: "b", value: Infinity }, { key: "c", value: NaN }], ["variations[0].value", "variations[1].value", "variations[2].value"]],
    ["json", [{ key: "a", value: { nested: [1, "two", null] } }, { key: "b", value: null }, { key: "c", value: [] }, { key: "d", value: "s" }], []],
    ["json", [{ key: "a", value: undefined }], ["variations[0].value"]],
    ["json", [{ key: "a", value: { d: new Date() } }], ["variations[0].value"]],
    ["string", [], ["variations"]],
    ["string", [{ key: "a", value: "x" }, { key: "a", value: "y" }], ["variations[1].key"]],
    ["string", [{ key: "has space", value: "x" }, { key: "-lead", value: "y" }, { key: "x".repeat(129), value: "z" }], ["variations[0].key", "variations[1].key", "variations[2].key"]],
    ["string", [{ key: "ok", value: "x", name: 3 }], ["variations[0].name"]]
  ] as const)("%s %j -> %j", (type, variations, expected) => {
    expect(paths(Validation.validateVariations(type as FlagType, variations as unknown as ReadonlyArray<Variation>))).toEqual(expected)
  })

  it("uses the given path prefix", () => {
    expect(paths(Validation.validateVariations("boolean", [{ key: "a", value: "no" }], "body.variations"))).toEqual(["body.variations[0].value"])
  })
})

describe("validateCreateFlag", () => {
  it("accepts a well-formed flag", () => {
    expect(Validation.validateCreateFlag({ key: "new-checkout", name: "New checkout", type: "boolean", variations: [{ key: "on", value: true }] })).toEqual([])
  })
  it("reports every problem, not only the first", () => {
    const problems = Validation.validateCreateFlag({
      key: "bad key",
      type: "boolean",
      variations: [{ key: "on", value: "true" }, { key: "on", value: false }]
    })
    expect(paths(problems)).toEqual(["key", "variations[0].value", "variations[1].key"])
    expect(problems[1]!.message).toMatch(/boolean/)
  })
  it("an unknown type is reported", () => {
    expect(paths(Validation.validateCreateFlag({ key: "f", type: "date" as never, variations: [] }))).toEqual(["type"])
  })
  it("at least one variation is required", () => {
    expect(paths(Validation.validateCreateFlag({ key: "f", type: "string", variations: [] }))).toEqual(["variations"])
  })
})

const flag = {
  key: "checkout",
  type: "string" as const,
  variations: [
    { key: "A", value: "a" },
    { key: "B", value: "b" },
    { key: "C", value: "c" }
  ]
}
const segmentKeys = new Set(["beta-testers"])
const targeting = (rules: ReadonlyArray<unknown>, overrides: Partial<TargetingInput> = {}): TargetingInput => ({
  environment: "production",
  enabled: true,
  defaultVariationKey: "C",
  offVariationKey: "C",
  rules: rules as ReadonlyArray<RuleInput>,
  ...overrides
})
const check = (input: TargetingInput) => paths(Validation.validateTargeting(flag, input, segmentKeys))
const rule = (conditions: ReadonlyArray<unknown>, extra: Record<string, unknown> = { variationKey: "A" }) => ({ conditions, ...extra })

describe("validateTargeting", () => {
  it("accepts a full, valid configuration", () => {
    expect(
      check(
        targeting([
          { id: "r1", name: "NA paid", conditions: [{ attribute: "country", operator: "in", values: ["US", "CA"] }], variationKey: "A" },
          rule([{ operator: "inSegment", values: ["beta-testers"] }], { variationKey: "B" }),
          rule([], { rollout: { bucketBy: "key", seed: "s", variations: [{ variationKey: "A", weight: 25_000 }, { variationKey: "C", weight: 75_000 }] } }),
          rule([{ attribute: "plan", operator: "exists", values: [] }], { rollout: { variations: [{ variationKey: "B", weight: 100_000 }] } })
        ])
      )
    ).toEqual([])
  })

  it.each([
    ["unknown default variation", targeting([], { defaultVariationKey: "Z" }), ["defaultVariationKey"]],
    ["unknown off variation", targeting([], { offVariationKey: "Z" }), ["offVariationKey"]],
    ["malformed environment key", targeting([], { environment: "no spaces" }), ["environment"]],
    ["enabled not a boolean", targeting([], { enabled: "yes" as never }), ["enabled"]],
    ["a rule naming an unknown variation", targeting([rule([], { variationKey: "Z" })]), ["rules[0].variationKey"]],
    ["a rule with both variationKey and rollout", targeting([rule([], { variationKey: "A", rollout: { variations: [{ variationKey: "A", weight: 100_000 }] } })]), ["rules[0]"]],
    ["a rule with neither", targeting([rule([], {})]), ["rules[0]"]],
    ["duplicate rule ids", targeting([rule([], { id: "x", variationKey: "A" }), rule([], { id: "x", variationKey: "B" })]), ["rules[1].id"]],
    ["malformed rule id", targeting([rule([], { id: "has space", variationKey: "A" })]), ["rules[0].id"]],
    [
      "weights not summing to 100000",
      targeting([rule([], { rollout: { variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "C", weight: 40_000 }] } })]),
      ["rules[0].rollout.variations"]
    ],
    [
      "non-integer and negative weights",
      targeting([rule([], { rollout: { variations: [{ variationKey: "A", weight: 50_000.5 }, { variationKey: "C", weight: -1 }] } })]),
      ["rules[0].rollout.variations[0].weight", "rules[0].rollout.variations[1].weight"]
    ],
    [
      "a rollout naming an unknown variation",
      targeting([rule([], { rollout: { variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "Z", weight: 50_000 }] } })]),
      ["rules[0].rollout.variations[1].variationKey"]
    ],
    [
      "a variation twice in one rollout",
      targeting([rule([], { rollout: { variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "A", weight: 50_000 }] } })]),
      ["rules[0].rollout.variations[1].variationKey"]
    ],
    ["an empty rollout", targeting([rule([], { rollout: { variations: [] } })]), ["rules[0].rollout.variations"]],
    ["an empty bucketBy", targeting([rule([], { rollout: { bucketBy: "", variations: [{ variationKey: "A", weight: 100_000 }] } })]), ["rules[0].rollout.bucketBy"]],
    ["an unknown segment", targeting([rule([{ operator: "inSegment", values: ["ghosts"] }])]), ["rules[0].conditions[0].values[0]"]],
    ["rules not an array", targeting(null as never), ["rules"]]
  ] as const)("%s", (_, input, expected) => {
    expect(check(input as TargetingInput)).toEqual(expected)
  })

  it("reports every problem of every rule with its path", () => {
    const problems = check(
      targeting(
        [
          rule([{ attribute: "age", operator: "gt", values: ["18"] }], { variationKey: "Z" }),
          rule([{ attribute: "v", operator: "matches", values: ["(?=lookahead)"] }], { rollout: { variations: [{ variationKey: "A", weight: 1 }] } })
        ],
        { offVariationKey: "nope" }
      )
    )
    expect(problems).toEqual([
      "offVariationKey",
      "rules[0].variationKey",
      "rules[0].conditions[0].values[0]",
      "rules[1].rollout.variations",
      "rules[1].conditions[0].values[0]"
    ])
  })
})

describe("validateConditions", () => {
  const cond = (c: Record<string, unknown>) => paths(Validation.validateConditions([c as unknown as Condition], segmentKeys, "conditions"))
  it.each([
    [{ attribute: "country", operator: "in", values: ["US", 1, true, null, { a: 1 }] }, []],
    [{ attribute: "country", operator: "in", values: [] }, ["conditions[0].values"]],
    [{ operator: "in", values: ["US"] }, ["conditions[0].attribute"]],
    [{ attribute: "", operator: "in", values: ["US"] }, ["conditions[0].attribute"]],
    [{ attribute: "x", operator: "like", values: ["US"] }, ["conditions[0].operator"]],
    [{ attribute: "x", operator: "in", values: "US" }, ["conditions[0].values"]],
    [{ attribute: "x", operator: "in", values: ["US"], negate: "yes" }, ["conditions[0].negate"]],
    [{ attribute: "email", operator: "endsWith", values: ["@x.com", 3] }, ["conditions[0].values[1]"]],
    [{ attribute: "email", operator: "contains", values: [] }, ["conditions[0].values"]],
    [{ attribute: "age", operator: "lt", values: [18, "18", NaN] }, ["conditions[0].values[1]", "conditions[0].values[2]"]],
    [{ attribute: "t", operator: "before", values: ["2026-01-01T00:00:00Z", 1_700_000_000_000] }, []],
    [{ attribute: "t", operator: "after", values: ["tomorrow", "2026-02-30", true] }, ["conditions[0].values[0]", "conditions[0].values[1]", "conditions[0].values[2]"]],
    [{ attribute: "v", operator: "semverGt", values: ["1.2.3", "1.2"] }, ["conditions[0].values[1]"]],
    [{ attribute: "v", operator: "matches", values: ["^ok$", "(", "(a)\\1", 5] }, ["conditions[0].values[1]", "conditions[0].values[2]", "conditions[0].values[3]"]],
    [{ attribute: "ip", operator: "matches", values: ["^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$", "(?i)^beta-", "^\\p{L}+$"] }, []],
    [{ attribute: "plan", operator: "exists", values: [] }, []],
    [{ attribute: "plan", operator: "exists", values: ["x"] }, ["conditions[0].values"]],
    [{ operator: "exists", values: [] }, ["conditions[0].attribute"]],
    [{ operator: "inSegment", values: ["beta-testers"] }, []],
    [{ operator: "notInSegment", values: ["beta-testers", "nobody"] }, ["conditions[0].values[1]"]],
    [{ attribute: "email", operator: "inSegment", values: ["beta-testers"] }, ["conditions[0].attribute"]],
    [{ operator: "inSegment", values: [] }, ["conditions[0].values"]]
  ] as const)("%j -> %j", (c, expected) => {
    expect(cond(c)).toEqual(expected)
  })

  it("names the refused regular expression's problem in RE2's words", () => {
    const [problem] = Validation.validateConditions([{ attribute: "v", operator: "matches", values: ["(?=a)b"] }], segmentKeys)
    expect(problem!.message).toBe("regular expression refused (RE2 syntax): invalid or unsupported Perl syntax: `(?=`")
  })
})

describe("segments", () => {
  it("segment conditions cannot reference segments", () => {
    const problems = Validation.validateSegmentConditions([
      { attribute: "country", operator: "in", values: ["US"] },
      { operator: "inSegment", values: ["beta-testers"] },
      { operator: "notInSegment", values: ["x"] }
    ])
    expect(paths(problems)).toEqual(["conditions[1].operator", "conditions[2].operator"])
    expect(problems[0]!.message).toMatch(/segments cannot reference segments/)
  })

  it.each([
    [{ key: "beta", name: "Beta testers", conditions: [] }, []],
    [{ key: "beta", name: "", conditions: [] }, ["name"]],
    [{ key: "beta", name: "x".repeat(120), description: "d".repeat(500), conditions: [] }, []],
    [{ key: "beta", name: "x".repeat(121), description: "d".repeat(501), conditions: [] }, ["name", "description"]],
    [{ key: "beta", name: "ok", description: null, conditions: [] }, []],
    [{ key: "bad key", name: "ok", conditions: [{ operator: "inSegment", values: ["a"] }] }, ["key", "conditions[0].operator"]]
  ] as const)("validateCreateSegment %j -> %j", (input, expected) => {
    expect(paths(Validation.validateCreateSegment(input as never))).toEqual(expected)
  })
})

describe("keys in use", () => {
  const configs: ReadonlyArray<EnvironmentConfig> = [
    {
      environmentKey: "production",
      enabled: true,
      defaultVariationKey: "A",
      offVariationKey: "B",
      rules: [
        { id: "r1", conditions: [{ operator: "inSegment", values: ["beta"] }], variationKey: "C" },
        { id: "r2", conditions: [], rollout: { variations: [{ variationKey: "D", weight: 50_000 }, { variationKey: "A", weight: 50_000 }] } }
      ]
    },
    { environmentKey: "staging", enabled: false, defaultVariationKey: "E", offVariationKey: "E", rules: [] }
  ]
  it("variationKeysInUse names default, off, rule and rollout variations of every environment", () => {
    expect([...Validation.variationKeysInUse(configs)].sort()).toEqual(["A", "B", "C", "D", "E"])
  })
  it("segmentKeysInUse names the segments rules reference", () => {
    expect([...Validation.segmentKeysInUse(configs)]).toEqual(["beta"])
  })
})
