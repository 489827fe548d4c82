/**
 * Properties of evaluation over arbitrary valid definitions and contexts. The generated
 * definitions are checked by `Validation` first, so the properties speak about exactly the
 * definitions the service accepts.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { EvaluationContext } from "../../src/domain/evaluation/EvaluationContext.js"
import type { FlagType } from "../../src/domain/definitions/Flag.js"
import * as Validation from "../../src/domain/definitions/Validation.js"
import { contextArbitrary, snapshotArbitrary, weights } from "./arbitraries.js"

const isOfType = (type: FlagType, value: unknown): boolean =>
  type === "boolean" ? typeof value === "boolean" : type === "string" ? typeof value === "string" : type === "number" ? typeof value === "number" : value !== undefined

const runs = { fastCheck: { numRuns: 300 } }

describe("evaluation properties", () => {
  it.prop(
    "generated definitions are valid (so the properties below speak about accepted definitions)",
    [snapshotArbitrary],
    ([snap]) => {
      const segmentKeys = new Set(snap.segments.map((s) => s.key))
      for (const s of snap.segments) expect(Validation.validateSegmentConditions(s.conditions)).toEqual([])
      for (const f of snap.flags) {
        expect(Validation.validateVariations(f.type, f.variations)).toEqual([])
        expect(Validation.validateTargeting(f, { environment: "production", ...f }, segmentKeys)).toEqual([])
      }
    },
    runs
  )

  it.prop(
    "total and deterministic: never throws, never ERROR on a valid definition, same answer every time",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const compiled = Evaluate.compile(snap)
      const again = Evaluate.compile(structuredClone(snap))
      for (const f of snap.flags) {
        const result = Evaluate.evaluate(compiled, f.key, context)
        expect(result.reason.kind).not.toBe("ERROR")
        expect(Evaluate.evaluate(compiled, f.key, context)).toEqual(result)
        expect(Evaluate.evaluate(again, f.key, structuredClone(context))).toEqual(result)
      }
      expect(Evaluate.evaluateAll(compiled, context)).toEqual(Evaluate.evaluateAll(again, context))
    },
    runs
  )

  it.prop(
    "the served value is one of the flag's variations and has the flag's type",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const all = Evaluate.evaluateAll(Evaluate.compile(snap), context)
      for (const f of snap.flags) {
        const result = all[f.key]!
        const variation = f.variations.find((v) => v.key === result.variationKey)
        expect(variation).toBeDefined()
        expect(result.value).toEqual(variation!.value)
        expect(isOfType(f.type, result.value)).toBe(true)
        if (result.reason.kind === "RULE_MATCH") {
          expect(f.rules[result.reason.ruleIndex!]!.id).toBe(result.reason.ruleId)
        }
      }
    },
    runs
  )

  it.prop(
    "a disabled configuration always gives OFF with the off variation",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const disabled = { ...snap, flags: snap.flags.map((f) => ({ ...f, enabled: false })) }
      const compiled = Evaluate.compile(disabled)
      for (const f of disabled.flags) {
        const result = Evaluate.evaluate(compiled, f.key, context)
        expect(result.reason).toEqual({ kind: "OFF" })
        expect(result.variationKey).toBe(f.offVariationKey)
      }
    },
    runs
  )

  it.prop(
    "never throws on arbitrary input, and always answers with the asked flag key",
    [fc.anything(), fc.anything(), fc.string()],
    ([snap, context, key]) => {
      const compiled = Evaluate.compile(snap as ConfigSnapshot)
      expect(Evaluate.evaluate(compiled, key, context as EvaluationContext).flagKey).toBe(key)
      expect(typeof Evaluate.evaluateAll(compiled, context as EvaluationContext)).toBe("object")
    },
    { fastCheck: { numRuns: 500 } }
  )
})

describe("rollouts through the evaluator", () => {
  const rolloutFlag = (weights: ReadonlyArray<number>, key = "rollout-flag"): SnapshotFlag => ({
    key,
    type: "string",
    enabled: true,
    variations: weights.map((_, i) => ({ key: `v${i}`, value: `value-${i}` })),
    defaultVariationKey: "v0",
    offVariationKey: "v0",
    rules: [{ id: "split", conditions: [], rollout: { variations: weights.map((weight, i) => ({ variationKey: `v${i}`, weight })) } }]
  })

  it.prop(
    "growing one variation's weight while shrinking the last never moves a context out of it",
    [fc.integer({ min: 2, max: 5 }).chain((n) => weights(n)), fc.nat(), fc.nat({ max: 100_000 }), fc.string({ minLength: 1 })],
    ([ws, pick, grow, key]) => {
      const last = ws.length - 1
      const i = pick % last
      const delta = Math.min(grow, ws[last]!)
      const grown = ws.map((w, j) => (j === i ? w + delta : j === last ? w - delta : w))
      const before = Evaluate.evaluate(Evaluate.compile({ environment: "e", flags: [rolloutFlag(ws)], segments: [] }), "rollout-flag", { key })
      const after = Evaluate.evaluate(Evaluate.compile({ environment: "e", flags: [rolloutFlag(grown)], segments: [] }), "rollout-flag", { key })
      if (before.variationKey === `v${i}`) expect(after.variationKey).toBe(`v${i}`)
    },
    runs
  )

  it("over 100,000 random keys each variation's share is within 1 percentage point of its weight", () => {
    const ws = [12_500, 37_500, 1_000, 49_000]
    const compiled = Evaluate.compile({ environment: "e", flags: [rolloutFlag(ws)], segments: [] })
    const counts = new Map<string, number>()
    for (const key of fc.sample(fc.string({ minLength: 8, maxLength: 24 }), { numRuns: 100_000, seed: 7 })) {
      const v = Evaluate.evaluate(compiled, "rollout-flag", { key }).variationKey!
      counts.set(v, (counts.get(v) ?? 0) + 1)
    }
    ws.forEach((w, i) => expect(Math.abs((counts.get(`v${i}`) ?? 0) / 100_000 - w / 100_000)).toBeLessThan(0.01))
  })
})
