import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Evaluate from "../../../src/domain/evaluation/Evaluate.js"
import type { Rule } from "../../../src/domain/definitions/Targeting.js"
import { applyStep, apportion, baselineOf } from "../../../src/domain/releaseplans/ApplyStep.js"
import { booleanFlag, snapshot } from "../fixtures.js"
import { splitRule } from "./fixtures.js"

const baseline = baselineOf(splitRule, "green")

describe("a step as the rule's rollout", () => {
  it("gives the plan's variation the weight, first; the others keep their proportions", () => {
    expect(baseline).toEqual([{ variationKey: "off", weight: 60_000 }, { variationKey: "blue", weight: 40_000 }])
    expect(applyStep(splitRule, { variationKey: "green", baseline }, 5_000)).toEqual({
      id: "split",
      conditions: [],
      rollout: { variations: [{ variationKey: "green", weight: 5_000 }, { variationKey: "off", weight: 57_000 }, { variationKey: "blue", weight: 38_000 }] }
    })
    expect(applyStep(splitRule, { variationKey: "green", baseline }, 100_000).rollout!.variations.map((s) => s.weight)).toEqual([100_000, 0, 0])
    expect(applyStep(splitRule, { variationKey: "green", baseline }, 0).rollout!.variations.map((s) => s.weight)).toEqual([0, 60_000, 40_000])
  })

  it("turns a rule serving one variation into a rollout, keeping conditions, name, seed and bucketBy", () => {
    const single: Rule = { id: "r", name: "beta", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "off" }
    expect(applyStep(single, { variationKey: "on", baseline: baselineOf(single, "on") }, 25_000)).toEqual({
      id: "r",
      name: "beta",
      conditions: [{ attribute: "beta", operator: "in", values: [true] }],
      rollout: { variations: [{ variationKey: "on", weight: 25_000 }, { variationKey: "off", weight: 75_000 }] }
    })
    const seeded: Rule = { ...splitRule, rollout: { ...splitRule.rollout!, seed: "s", bucketBy: "org" } }
    expect(applyStep(seeded, { variationKey: "green", baseline }, 1).rollout).toMatchObject({ seed: "s", bucketBy: "org" })
  })

  it.prop("apportion sums to the total exactly, each share within one of its exact value", [
    fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 6 }).filter((a) => a.some((x) => x > 0)),
    fc.integer({ min: 0, max: 100_000 })
  ], ([shares, total]) => {
    const parts = apportion(shares, total)
    const sum = shares.reduce((a, b) => a + b, 0)
    expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
    parts.forEach((part, i) => expect(Math.abs(part - (shares[i]! * total) / sum)).toBeLessThan(1))
  })
})

describe("stable units over 100,000 contexts", () => {
  const contexts = Array.from({ length: 100_000 }, (_, i) => ({ key: `user-${i}` }))
  const greenAt = (weight: number): Set<string> => {
    const rule = applyStep(splitRule, { variationKey: "green", baseline }, weight)
    const compiled = Evaluate.compile(snapshot([booleanFlag({
      key: "checkout",
      type: "string",
      variations: [{ key: "off", value: "off" }, { key: "blue", value: "blue" }, { key: "green", value: "green" }],
      rules: [rule]
    })]))
    const served = new Set<string>()
    for (const context of contexts) if (Evaluate.evaluate(compiled, "checkout", context).variationKey === "green") served.add(context.key)
    return served
  }

  it("growing the weight only adds units; the same weight serves the same units after pause, rollback and restart", () => {
    const weights = [1_000, 5_000, 25_000, 50_000, 100_000]
    const ramp = weights.map(greenAt)
    for (let i = 1; i < ramp.length; i++) {
      for (const unit of ramp[i - 1]!) expect(ramp[i]!.has(unit)).toBe(true)
      // About the weight's share of the contexts (the hash is uniform): within 1.5 points.
      expect(Math.abs(ramp[i]!.size / 100_000 - weights[i]! / 100_000)).toBeLessThan(0.015)
    }
    expect(ramp[4]!.size).toBe(100_000)
    // Rolled back to 0: nobody; restarted at 5%: exactly the units 5% served before.
    expect(greenAt(0).size).toBe(0)
    expect([...greenAt(5_000)].sort()).toEqual([...ramp[1]!].sort())
  })
})
