import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import type { Condition, RuleInput, TargetingInput } from "../../src/domain/definitions/Targeting.js"
import * as Validation from "../../src/domain/definitions/Validation.js"
import { contextLimitProblem } from "../../src/domain/evaluation/ContextLimits.js"
import * as Re2 from "../../src/domain/conditions/Re2.js"
import { docsTable, limit } from "../../src/domain/Limits.js"

const flag = { key: "f", type: "boolean" as const, variations: [{ key: "on", value: true }, { key: "off", value: false }] }
const targeting = (rules: ReadonlyArray<RuleInput>): TargetingInput => ({
  environment: "production",
  enabled: true,
  defaultVariationKey: "off",
  offVariationKey: "off",
  rules
})
const rule = (conditions: ReadonlyArray<Condition>): RuleInput => ({ conditions, variationKey: "on" })
const check = (rules: ReadonlyArray<RuleInput>) => Validation.validateTargeting(flag, targeting(rules), new Set(["s"]))
const n = (count: number, f: (i: number) => string = (i) => `v${i}`) => Array.from({ length: count }, (_, i) => f(i))

describe("configuration limits (on write)", () => {
  it("rules per configuration", () => {
    expect(check(n(limit("rulesPerConfiguration")).map(() => rule([])))).toEqual([])
    expect(check(n(limit("rulesPerConfiguration") + 1).map(() => rule([])))).toEqual([{ path: "rules", message: "must have at most 100 rules" }])
  })

  it("conditions per rule", () => {
    const c: Condition = { attribute: "plan", operator: "exists", values: [] }
    expect(check([rule(n(limit("conditionsPerRule")).map(() => c))])).toEqual([])
    expect(check([rule(n(limit("conditionsPerRule") + 1).map(() => c))])).toEqual([
      { path: "rules[0].conditions", message: "must have at most 20 conditions" }
    ])
  })

  it("conditions per segment", () => {
    const c: Condition = { attribute: "plan", operator: "exists", values: [] }
    expect(Validation.validateSegmentConditions(n(limit("conditionsPerSegment")).map(() => c))).toEqual([])
    expect(Validation.validateSegmentConditions(n(limit("conditionsPerSegment") + 1).map(() => c))).toEqual([
      { path: "conditions", message: "must have at most 50 conditions" }
    ])
  })

  it("values per condition, whatever the operator", () => {
    for (const operator of ["in", "contains", "startsWith", "endsWith"] as const) {
      expect(check([rule([{ attribute: "a", operator, values: n(limit("valuesPerCondition")) }])])).toEqual([])
      expect(check([rule([{ attribute: "a", operator, values: n(limit("valuesPerCondition") + 1) }])])).toEqual([
        { path: "rules[0].conditions[0].values", message: "must have at most 500 values" }
      ])
    }
  })

  it("length of a condition's string values", () => {
    const ok = "x".repeat(limit("conditionStringLength"))
    expect(check([rule([{ attribute: "a", operator: "contains", values: [ok] }])])).toEqual([])
    expect(check([rule([{ attribute: "a", operator: "in", values: ["short", ok + "x"] }])])).toEqual([
      { path: "rules[0].conditions[0].values[1]", message: "must be at most 256 characters" }
    ])
  })

  it("the compiled size of a matches condition: everyday patterns fit, 1,000 instructions fit, more do not", () => {
    const matches = (values: ReadonlyArray<string>) => check([rule([{ attribute: "v", operator: "matches", values }])])
    // The examples (issue 25, item 5), refused by the old limit of 50 instructions.
    expect(Re2.programSize(["^Mozilla/5\\.0 \\((Windows|Macintosh|X11|iPhone|iPad|Linux)"])).toBeGreaterThan(50)
    expect(matches(["^Mozilla/5\\.0 \\((Windows|Macintosh|X11|iPhone|iPad|Linux)"])).toEqual([])
    const four = ["@example\\.com$", "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", "beta", "^(ios|android)-[0-9]+\\.[0-9]+$"]
    expect(Re2.programSize(four)).toBeGreaterThan(50)
    expect(matches(four)).toEqual([])
    // The issue-10 pattern (about 800 instructions) is now accepted: what it costs is metered (RegexBudget.test.ts).
    expect(matches(["[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}0"])).toEqual([])
    // The limit itself, exactly: the widest `[bc]{0,n}b` within it, and one more.
    let width = 1
    while (Re2.programSize([`[bc]{0,${width + 1}}b`]) <= limit("regexSizePerCondition")) width++
    expect(Re2.programSize([`[bc]{0,${width}}b`])).toBeGreaterThanOrEqual(limit("regexSizePerCondition") - 2)
    expect(matches([`[bc]{0,${width}}b`])).toEqual([])
    const [problem, ...rest] = matches([`[bc]{0,${width + 1}}b`])
    expect(rest).toEqual([])
    expect(problem!.path).toBe("rules[0].conditions[0].values")
    expect(problem!.message).toMatch(/^the regular expressions compile to \d+ RE2 instructions together, at most 1,000:/)
    // Several patterns count together: they run as one program.
    expect(matches([`[bc]{0,${width >> 1}}b`, `[bc]{0,${width >> 1}}c`, `[bc]{0,${width >> 1}}d`])[0]!.path).toBe("rules[0].conditions[0].values")
  })
})

describe("context limits (the evaluation endpoints)", () => {
  const ctx = (attributes: Record<string, unknown>, key = "user-1") => ({ key, attributes })
  const long = (length: number) => "x".repeat(length)

  it("accepts a context at every limit", () => {
    const attributes: Record<string, unknown> = {}
    for (let i = 0; i < limit("contextAttributes") - 1; i++) attributes[`a${i}`] = i
    attributes.tags = n(limit("contextArrayLength"), (i) => String(i % 10))
    expect(contextLimitProblem(ctx(attributes, long(limit("contextStringLength"))), "context")).toBeUndefined()
  })

  it.each([
    ["a key too long", { key: long(1025) }, { path: "context.key", message: "must be at most 1,024 characters" }],
    ["a string too long", ctx({ ua: long(1025) }), { path: "context.attributes.ua", message: "must be at most 1,024 characters" }],
    ["an array too long", ctx({ tags: n(101) }), { path: "context.attributes.tags", message: "must have at most 100 elements" }],
    ["a string too long in an array", ctx({ tags: ["a", long(1025)] }), { path: "context.attributes.tags[1]", message: "must be at most 1,024 characters" }],
    [
      "too many attributes",
      ctx(Object.fromEntries(n(101).map((k) => [k, 1]))),
      { path: "context.attributes", message: "must have at most 100 attributes" }
    ],
    [
      "nesting too deep",
      ctx({ deep: JSON.parse("[".repeat(9) + "]".repeat(9)) }),
      { path: "context.attributes.deep[0][0][0][0][0][0][0][0]", message: "must nest arrays and objects at most 8 levels deep" }
    ],
    [
      "too large altogether",
      ctx({ a: long(1000), b: long(1000), c: long(1000), d: long(1000), e: long(1000), f: long(1000), g: long(1000), h: long(1000), i: long(1000) }),
      { path: "context", message: "must encode to at most 8,192 characters of JSON (this one has 9,094)" }
    ]
  ])("refuses %s", (_, context, problem) => {
    expect(contextLimitProblem(context, "context")).toEqual(problem)
  })

  it("a deeply nested value is refused without walking it (no stack overflow)", () => {
    const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000))
    expect(contextLimitProblem(ctx({ deep }), "")!.message).toBe("must nest arrays and objects at most 8 levels deep")
  })

  it("paths start at the query for the GET route", () => {
    expect(contextLimitProblem(ctx({ ua: long(1025) }), "")).toEqual({ path: "attributes.ua", message: "must be at most 1,024 characters" })
  })
})

describe("docs", () => {
  it("docs/operations/operating.md shows the limits table generated from Limits.ts", () => {
    const doc = readFileSync(new URL("../../docs/operations/operating.md", import.meta.url), "utf8")
    const between = /<!-- limits-table:start -->\n([\s\S]*?)\n<!-- limits-table:end -->/.exec(doc)
    expect(between?.[1]).toBe(docsTable())
  })
})
