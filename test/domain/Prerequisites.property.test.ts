/**
 * Properties of prerequisites and explain over generated configurations:
 * - `explain(...).result` is exactly `evaluate(...)` for random definitions (rules, segments,
 *   rollouts) with random prerequisites between them, cycles included;
 * - prerequisite evaluation is total over arbitrary graphs (cycles, self loops, missing and
 *   disabled flags, unknown variations) and agrees with a plain recursive reference of the rule.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { contextArbitrary } from "./arbitraries.js"
import { graphFlags, withPrerequisites } from "./prerequisiteArbitraries.js"


describe("explain", () => {
  it.prop(
    "explain(...).result equals evaluate(...) for every flag, prerequisites included",
    [withPrerequisites, contextArbitrary],
    ([snap, context]) => {
      const compiled = Evaluate.compile(snap)
      for (const key of [...snap.flags.map((f) => f.key), "missing"]) {
        const explained = Evaluate.explain(compiled, key, context)
        expect(explained.result).toEqual(Evaluate.evaluate(compiled, key, context))
        expect(explained.trace.flagKey).toBe(key)
      }
    },
    { fastCheck: { numRuns: 300 } }
  )
})

// --- totality over arbitrary graphs, against a reference ------------------------------------------

const graphArbitrary = graphFlags

interface Expected {
  readonly kind: string
  readonly variationKey: string
  readonly prerequisiteKey?: string
}

/**
 * The rule, written plainly: a disabled flag is OFF; an enabled flag whose prerequisites (through
 * enabled flags) reach a cycle is ERROR; otherwise the first prerequisite not served as named
 * fails it. (Five flags never nest deeper than the limit without a cycle.)
 */
const reference = (flags: ReadonlyArray<SnapshotFlag>) => {
  const byKey = new Map(flags.map((f) => [f.key, f]))
  const reachesCycle = (key: string, path: ReadonlyArray<string>): boolean => {
    const f = byKey.get(key)
    if (f === undefined || !f.enabled) return false
    if (path.includes(key)) return true
    return (f.prerequisites ?? []).some((p) => reachesCycle(p.flagKey, [...path, key]))
  }
  const expected = (key: string): Expected | null => {
    const f = byKey.get(key)
    if (f === undefined) return null
    if (!f.enabled) return { kind: "OFF", variationKey: "off" }
    if (reachesCycle(key, [])) return { kind: "ERROR", variationKey: "off" }
    for (const p of f.prerequisites ?? []) {
      const r = expected(p.flagKey)
      if (r === null || r.kind === "ERROR" || r.variationKey !== p.variationKey) {
        return { kind: "PREREQUISITE_FAILED", variationKey: "off", prerequisiteKey: p.flagKey }
      }
    }
    return { kind: "FALLTHROUGH", variationKey: f.defaultVariationKey }
  }
  return expected
}

describe("prerequisite evaluation", () => {
  it.prop(
    "is total over arbitrary graphs (cycles included) and follows the rule",
    [graphArbitrary],
    ([flags]) => {
      const compiled = Evaluate.compile({ environment: "production", flags, segments: [] })
      const expected = reference(flags)
      const all = Evaluate.evaluateAll(compiled, { key: "u" })
      for (const f of flags) {
        const result = all[f.key]!
        const want = expected(f.key)!
        expect(result.reason.kind).toBe(want.kind)
        expect(result.variationKey).toBe(want.variationKey)
        if (want.prerequisiteKey !== undefined) expect(result.reason.prerequisiteKey).toBe(want.prerequisiteKey)
        if (want.kind === "ERROR") expect(result.reason.error).toContain("cycle")
        expect(Evaluate.explain(compiled, f.key, { key: "u" }).result).toEqual(result)
      }
    },
    { fastCheck: { numRuns: 1000 } }
  )
})
