/**
 * The reference meaning of OR groups, checked on arbitrary valid definitions: a group is the OR of
 * its lists, so a rule with groups serves what the rules without groups that multiply its lists out
 * serve (one rule per choice of a list in each group, in order, each with the original's outcome),
 * and a segment with groups is in effect the union of the segments that multiply its lists out
 * (`inSegment` / `notInSegment` of it name all of them). The expanded definition has no group, so
 * the evaluator's plain paths (covered by Evaluate.property.test.ts) are the reference.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { isGroup, type ConditionOrGroup, type Condition } from "../../src/domain/definitions/Condition.js"
import type { Rule } from "../../src/domain/definitions/Targeting.js"
import type { ConfigSnapshot, SnapshotFlag, SnapshotSegment } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { contextArbitrary, snapshotArbitrary } from "./arbitraries.js"

/** Every way to pick one list from each group: the groups' lists multiplied out, plain conditions kept in place. */
const multiplyOut = (conditions: ReadonlyArray<ConditionOrGroup>): Array<Array<Condition>> =>
  conditions.reduce<Array<Array<Condition>>>(
    (choices, c) => (isGroup(c) ? choices.flatMap((chosen) => c.anyOf.map((list) => [...chosen, ...list])) : choices.map((chosen) => [...chosen, c])),
    [[]]
  )

const expandedKeys = (segment: SnapshotSegment): Array<string> => multiplyOut(segment.conditions).map((_, i) => `${segment.key}~${i}`)

const expand = (snap: ConfigSnapshot): { readonly snapshot: ConfigSnapshot; readonly origin: ReadonlyMap<string, ReadonlyMap<string, Rule>> } => {
  const renamed = new Map(snap.segments.map((s) => [s.key, expandedKeys(s)]))
  const renameSegments = (c: Condition): Condition =>
    c.operator === "inSegment" || c.operator === "notInSegment" ? { ...c, values: c.values.flatMap((v) => renamed.get(v as string) ?? [v]) } : c
  const segments = snap.segments.flatMap((s) => multiplyOut(s.conditions).map((conditions, i) => ({ key: `${s.key}~${i}`, conditions })))
  const origin = new Map<string, Map<string, Rule>>()
  const flags = snap.flags.map((flag): SnapshotFlag => {
    const byId = new Map<string, Rule>()
    origin.set(flag.key, byId)
    const rules = flag.rules.flatMap((rule) =>
      multiplyOut(rule.conditions).map((conditions, i): Rule => {
        const id = `${rule.id}~${i}`
        byId.set(id, rule)
        return { ...rule, id, conditions: conditions.map(renameSegments) }
      })
    )
    return { ...flag, rules }
  })
  return { snapshot: { ...snap, flags, segments }, origin }
}

const hasGroup = (snap: ConfigSnapshot): boolean =>
  snap.flags.some((f) => f.rules.some((r) => r.conditions.some(isGroup))) || snap.segments.some((s) => s.conditions.some(isGroup))

describe("OR groups against their reference meaning", () => {
  it.prop(
    "a definition with groups serves what its groups multiplied out into plain rules and segments serve",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const { snapshot: plain, origin } = expand(snap)
      expect(hasGroup(plain)).toBe(false)
      const withGroups = Evaluate.compile(snap)
      const reference = Evaluate.compile(plain)
      for (const f of snap.flags) {
        const got = Evaluate.evaluate(withGroups, f.key, context)
        const expected = Evaluate.evaluate(reference, f.key, context)
        expect(got.variationKey).toBe(expected.variationKey)
        expect(got.value).toEqual(expected.value)
        expect(got.reason.kind).toBe(expected.reason.kind)
        if (expected.reason.kind === "RULE_MATCH") {
          const rule = origin.get(f.key)!.get(expected.reason.ruleId!)!
          expect(got.reason.ruleId).toBe(rule.id)
          expect(got.reason.ruleIndex).toBe(f.rules.indexOf(rule))
        }
        expect(Evaluate.explain(withGroups, f.key, context).result).toEqual(got)
      }
    },
    { fastCheck: { numRuns: 300 } }
  )

  it("the generator writes groups in rules and in segments (so the property above is about them)", () => {
    const sample = fc.sample(snapshotArbitrary, { numRuns: 200, seed: 44 })
    expect(sample.filter((snap) => snap.flags.some((f) => f.rules.some((r) => r.conditions.some(isGroup)))).length).toBeGreaterThan(20)
    expect(sample.filter((snap) => snap.segments.some((s) => s.conditions.some(isGroup))).length).toBeGreaterThan(20)
  })
})
