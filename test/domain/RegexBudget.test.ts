/**
 * The `matches` budget of one evaluation (issue 25, item 5): patterns may be large, so what one
 * request's `matches` conditions may read is metered (conditions/RegexBudget.ts,
 * `Limits.regexWorkPerEvaluation`). A flag whose test would go past it answers ERROR; the other
 * flags, and the next evaluation, are unaffected; the answer depends on the request, never on time.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Re2 from "../../src/domain/conditions/Re2.js"
import type { ConfigSnapshot } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { limit, REGEX_TEST_OVERHEAD } from "../../src/domain/Limits.js"

/** The widest `[bc]{0,n}b[!?]` within the size limit: every "b" of a "bc" string starts a thread that lives long. */
const widest = (): string => {
  let n = 1
  while (Re2.programSize([`[bc]{0,${n + 1}}b[!?]`]) <= limit("regexSizePerCondition")) n++
  return `[bc]{0,${n}}b[!?]`
}
const PATTERN = widest()
const SIZE = Re2.programSize([PATTERN])
const LONG = "bc".repeat(limit("contextStringLength") / 2)

const flag = (key: string, pattern: string | null) => ({
  key,
  type: "boolean" as const,
  enabled: true,
  variations: [
    { key: "on", value: true },
    { key: "off", value: false }
  ],
  defaultVariationKey: "off",
  offVariationKey: "off",
  rules: pattern === null ? [] : [{ id: "r", conditions: [{ attribute: "v", operator: "matches" as const, values: [pattern] }], variationKey: "on" }]
})

const snapshot = (flags: ReadonlyArray<ReturnType<typeof flag>>): ConfigSnapshot => ({ environment: "production", flags, segments: [] }) as ConfigSnapshot

/** How many tests of `LONG` against `PATTERN` one budget pays for. */
const testsPerBudget = Math.floor(limit("regexWorkPerEvaluation") / (SIZE * (LONG.length + 1) + REGEX_TEST_OVERHEAD))

describe("the matches budget of one evaluation", () => {
  it("pays at least one test of the largest pattern against the longest string", () => {
    expect(SIZE).toBeGreaterThan(limit("regexSizePerCondition") - 10)
    expect(testsPerBudget).toBeGreaterThanOrEqual(1)
    const compiled = Evaluate.compile(snapshot([flag("f", PATTERN)]))
    expect(Evaluate.evaluate(compiled, "f", { key: "u", attributes: { v: LONG } }).reason).toEqual({ kind: "FALLTHROUGH" })
  })

  it("answers ERROR for the flag whose test would go past it; the flags before it and without matches keep their answers", () => {
    const flags = [...Array.from({ length: testsPerBudget + 1 }, (_, i) => flag(`m${i}`, PATTERN)), flag("plain", null)]
    const compiled = Evaluate.compile(snapshot(flags))
    const results = Evaluate.evaluateAll(compiled, { key: "u", attributes: { v: LONG } })
    for (let i = 0; i < testsPerBudget; i++) expect(results[`m${i}`]!.reason.kind).toBe("FALLTHROUGH")
    const spent = results[`m${testsPerBudget}`]!
    expect(spent.reason.kind).toBe("ERROR")
    expect(spent.reason.error).toMatch(/^REGEX_BUDGET_EXCEEDED: the matches conditions of this evaluation would read more than 1,500,000 instruction-characters/)
    expect(spent.variationKey).toBe("off")
    expect(results["plain"]!.reason).toEqual({ kind: "FALLTHROUGH" })
    // The same request, the same answer; and the bulk writer of the HTTP lane shares one budget too.
    expect(Evaluate.evaluateAll(compiled, { key: "u", attributes: { v: LONG } })).toEqual(results)
    const each: Record<string, string> = {}
    Evaluate.evaluateEach(compiled.ordered, { key: "u", attributes: { v: LONG } }, (f, result) => (each[f.key] = result.reason.kind))
    expect(each[`m${testsPerBudget}`]).toBe("ERROR")
  })

  it("gives every single-flag evaluation its own budget", () => {
    const compiled = Evaluate.compile(snapshot(Array.from({ length: testsPerBudget + 2 }, (_, i) => flag(`m${i}`, PATTERN))))
    for (let i = 0; i < testsPerBudget + 2; i++) {
      expect(Evaluate.evaluate(compiled, `m${i}`, { key: "u", attributes: { v: LONG } }).reason.kind).toBe("FALLTHROUGH")
      expect(Evaluate.evaluateCompiled(compiled.flags.get(`m${i}`)!, { key: "u", attributes: { v: LONG } }).reason.kind).toBe("FALLTHROUGH")
    }
  })

  it("meters the elements of an array attribute one by one, so many tiny strings are counted too", () => {
    const compiled = Evaluate.compile(snapshot([flag("f", PATTERN)]))
    const tiny = Array.from({ length: limit("contextArrayLength") }, () => "b")
    expect(Evaluate.evaluate(compiled, "f", { key: "u", attributes: { v: tiny } }).reason.kind).toBe("FALLTHROUGH")
    const long = Array.from({ length: testsPerBudget + 1 }, () => LONG)
    expect(Evaluate.evaluate(compiled, "f", { key: "u", attributes: { v: long } }).reason.kind).toBe("ERROR")
  })

  it("lets everyday patterns run hundreds of times per request", () => {
    const ua = "^Mozilla/5\\.0 \\((Windows|Macintosh|X11|iPhone|iPad|Linux)"
    const agent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
    const compiled = Evaluate.compile(snapshot(Array.from({ length: 200 }, (_, i) => flag(`ua${i}`, ua))))
    const results = Evaluate.evaluateAll(compiled, { key: "u", attributes: { v: agent } })
    expect(Object.values(results).every((r) => r.reason.kind === "RULE_MATCH")).toBe(true)
  })
})
