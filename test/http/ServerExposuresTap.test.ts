/**
 * The server's exposure tap (adapters/http/lane/ServerExposures.ts) on its own: only the measured
 * flag's rule records, the unit is the rollout's bucketBy value, a unit already queued with the same
 * variation is not queued again (its row would not change), one the queue refused is queued at its
 * next evaluation, and a refresh keeps what was queued while a stopped experiment's tap goes; a
 * release plan measuring the same rule records its units too, by arm.
 */
import { describe, expect, it } from "vitest"
import type { UnitExposure } from "../../src/domain/experiments/Exposure.js"
import type { MeasuredRule } from "../../src/domain/experiments/MeasuredRule.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { ServerExposures } from "../../adapters/http/lane/ServerExposures.js"
import { booleanFlag, snapshot } from "../domain/fixtures.js"

const ROLLOUT = { bucketBy: "userId", variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }

const compiled = Evaluate.compile(snapshot([
  booleanFlag({
    key: "measured",
    rules: [
      { id: "beta", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "on" },
      { id: "half", conditions: [], rollout: ROLLOUT }
    ]
  }),
  booleanFlag({ key: "plain", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] })
]))

const experiment: MeasuredRule = { id: "exp-1", environment: "production", flagKey: "measured", ruleId: "half", startedAt: "2026-12-01T00:00:00.000Z", metrics: [], preWindowDays: 7 }
/** A release plan ramping "on" in the same rule: its units are stored by arm. */
const plan: MeasuredRule = { ...experiment, id: "plan-1", preWindowDays: 0, rampedVariationKey: "on" }

const setUp = (accept: () => boolean = () => true) => {
  const offered: Array<UnitExposure> = []
  const index = new ServerExposures({
    running: () => Promise.resolve([experiment]),
    offer: (exposure) => {
      if (!accept()) return false
      offered.push(exposure)
      return true
    },
    logError: () => {},
    now: () => Date.parse("2026-12-02T00:00:00.000Z")
  })
  index.set("p1", [experiment])
  const evaluate = (flagKey: string, context: Evaluate.LocalContext) => {
    const result = Evaluate.evaluate(compiled, flagKey, context)
    index.in("p1", "production")?.(compiled.flags.get(flagKey)!, result, context)
    return result
  }
  return { index, offered, evaluate }
}

describe("the server's exposure tap", () => {
  it("records the measured rule's units only, once per unit and variation", () => {
    const { index, offered, evaluate } = setUp()
    const served = evaluate("measured", { key: "k1", attributes: { userId: "u1" } })
    evaluate("measured", { key: "k2", attributes: { userId: "u1" } }) // the same unit again
    evaluate("measured", { key: "k3", attributes: { userId: "u2", beta: true } }) // the beta rule served
    evaluate("measured", { key: "k4" }) // no bucketBy value: the rollout did not serve
    evaluate("plain", { key: "k5", attributes: { userId: "u3" } }) // a flag nothing measures
    expect(offered).toEqual([{ experimentId: "exp-1", unit: "u1", variationKey: served.variationKey, at: Date.parse("2026-12-02T00:00:00.000Z") }])
    expect(index.in("p1", "staging")).toBeUndefined()
    expect(index.in("p2", "production")).toBeUndefined()
  })

  it("records no unit POST /v1/exposures would refuse: over 256 characters, or not storable text", () => {
    const { offered, evaluate } = setUp()
    evaluate("measured", { key: "k1", attributes: { userId: "u".repeat(257) } })
    evaluate("measured", { key: "k2", attributes: { userId: "a\u0000b" } })
    evaluate("measured", { key: "k3", attributes: { userId: "u".repeat(256) } })
    expect(offered.map((e) => e.unit.length)).toEqual([256])
  })

  it("queues again a unit the queue refused; a refresh keeps what was queued; a stop removes the tap", () => {
    let full = true
    const { index, offered, evaluate } = setUp(() => !full)
    evaluate("measured", { key: "k1", attributes: { userId: "u1" } })
    expect(offered).toEqual([])
    full = false
    evaluate("measured", { key: "k1", attributes: { userId: "u1" } })
    expect(offered.map((e) => e.unit)).toEqual(["u1"])
    index.set("p1", [experiment])
    evaluate("measured", { key: "k1", attributes: { userId: "u1" } })
    expect(offered.map((e) => e.unit)).toEqual(["u1"])
    index.set("p1", [])
    expect(index.in("p1", "production")).toBeUndefined()
  })

  it("records a release plan's units by arm beside an experiment measuring the same rule", () => {
    const { index, offered, evaluate } = setUp()
    index.set("p1", [experiment, plan])
    const served = new Map<string, string | null>()
    for (let i = 0; i < 40; i++) served.set(`u${i}`, evaluate("measured", { key: `k${i}`, attributes: { userId: `u${i}` } }).variationKey)
    const forExperiment = offered.filter((e) => e.experimentId === "exp-1")
    const forPlan = offered.filter((e) => e.experimentId === "plan-1")
    expect(forExperiment.map((e) => [e.unit, e.variationKey])).toEqual([...served].map(([unit, variationKey]) => [unit, variationKey]))
    expect(forPlan.map((e) => [e.unit, e.variationKey])).toEqual([...served].map(([unit, variationKey]) => [unit, variationKey === "on" ? "treatment" : "control"]))
    expect(new Set(forPlan.map((e) => e.variationKey))).toEqual(new Set(["treatment", "control"]))
  })
})
