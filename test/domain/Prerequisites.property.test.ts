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
import type { Prerequisite } from "../../src/domain/definitions/Targeting.js"
import { contextArbitrary, snapshotArbitrary } from "./arbitraries.js"

const KEYS = ["f0", "f1", "f2", "f3", "f4"] as const

const prerequisiteArbitrary = (variations: ReadonlyArray<string>): fc.Arbitrary<Prerequisite> =>
  fc.record({ flagKey: fc.constantFrom(...KEYS, "ghost"), variationKey: fc.constantFrom(...variations, "bogus") })

/** The generated snapshots (three flags with rules and segments), each flag given random prerequisites among them. */
const withPrerequisites: fc.Arbitrary<ConfigSnapshot> = snapshotArbitrary.chain((snap) =>
  fc
    .tuple(...snap.flags.map((f) => fc.array(prerequisiteArbitrary(f.variations.map((v) => v.key)), { maxLength: 3 })))
    .map((lists) => ({ ...snap, flags: snap.flags.map((f, i) => ({ ...f, prerequisites: lists[i]! })) }))
)

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

const graphFlag = (key: string): fc.Arbitrary<SnapshotFlag> =>
  fc.record({
    key: fc.constant(key),
    type: fc.constant("boolean" as const),
    enabled: fc.boolean(),
    variations: fc.constant([
      { key: "on", value: true },
      { key: "off", value: false }
    ]),
    defaultVariationKey: fc.constantFrom("on", "off"),
    offVariationKey: fc.constant("off"),
    prerequisites: fc.array(prerequisiteArbitrary(["on", "off"]), { maxLength: 3 }),
    rules: fc.constant([])
  })

const graphArbitrary: fc.Arbitrary<ReadonlyArray<SnapshotFlag>> = fc
  .integer({ min: 1, max: KEYS.length })
  .chain((n) => fc.tuple(...KEYS.slice(0, n).map(graphFlag)))

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
