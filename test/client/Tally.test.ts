import { describe, expect, it } from "vitest"
import type { EvaluationResult } from "../../adapters/client/Core.js"
import { Tally } from "../../adapters/client/Insights.js"

/** A result as the evaluator shares it (frozen), or a fresh one (not frozen). */
const shared = (variationKey: string | null, ruleIndex = 0): EvaluationResult =>
  Object.freeze({ flagKey: "f", value: variationKey, variationKey, reason: Object.freeze({ kind: "RULE_MATCH" as const, ruleIndex }) })
const fresh = (variationKey: string): EvaluationResult => ({ flagKey: "f", value: variationKey, variationKey, reason: { kind: "FALLTHROUGH" } })

const counted = (results: ReadonlyArray<EvaluationResult>, times = 1) => {
  const tally = new Tally()
  for (let t = 0; t < times; t++) for (const result of results) tally.count(result)
  return Object.fromEntries(tally.take())
}

describe("the SDK's per-flag tally", () => {
  const a0 = shared("A", 0)
  const a1 = shared("A", 1)
  const b = shared("B")
  const c = shared("C")
  const d = shared("D")
  const manyVariations = Array.from({ length: 30 }, (_, i) => shared(`v${i}`, i))

  it.each([
    { name: "nothing", results: [], expected: {} },
    { name: "one result", results: [a0, a0, a0], expected: { A: 3 } },
    { name: "two results of one variation (two rules) merge by key", results: [a0, a1, a0], expected: { A: 3 } },
    { name: "five shared results (past the four kept in fields)", results: [a0, b, c, d, a1, d, a0], expected: { A: 3, B: 1, C: 1, D: 2 } },
    { name: "fresh result objects count by key", results: [fresh("A"), fresh("A"), a0], expected: { A: 3 } },
    { name: "no variation served: not counted", results: [shared(null), a0], expected: { A: 1 } },
    { name: "more outcomes than are scanned", results: manyVariations, expected: Object.fromEntries(manyVariations.map((r) => [r.variationKey, 1])) }
  ])("$name", ({ results, expected }) => {
    expect(counted(results)).toEqual(expected)
    expect(counted(results, 3)).toEqual(Object.fromEntries(Object.entries(expected as Record<string, number>).map(([k, n]) => [k, n * 3])))
  })

  it("take() empties it and lets go of the results; add() puts counts back", () => {
    const tally = new Tally()
    tally.count(a0)
    tally.count(b)
    expect(Object.fromEntries(tally.take())).toEqual({ A: 1, B: 1 })
    expect(Object.fromEntries(tally.take())).toEqual({})
    tally.add("A", 5)
    tally.count(c)
    tally.count(a0)
    expect(Object.fromEntries(tally.take())).toEqual({ A: 6, C: 1 })
  })
})
