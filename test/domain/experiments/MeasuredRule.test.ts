/**
 * Which exposures and events the measured rules keep when a release plan measures a rule beside
 * (or without) an experiment: each keeps its own, from its own start; the plan's units by arm.
 */
import { describe, expect, it } from "vitest"
import { keptExposures } from "../../../src/domain/experiments/Exposure.js"
import { type MeasuredRule, measuredRulesOf } from "../../../src/domain/experiments/MeasuredRule.js"
import { keptEvents } from "../../../src/domain/experiments/MetricEvent.js"

const experiment: MeasuredRule = {
  id: "exp-1",
  environment: "production",
  flagKey: "checkout",
  ruleId: "r1",
  startedAt: "2026-12-01T00:00:00.000Z",
  metrics: [{ key: "purchases", event: "purchase" }],
  preWindowDays: 7
}
const plan: MeasuredRule = {
  id: "plan-1@2026-12-01T12:00:00.000Z",
  environment: "production",
  flagKey: "checkout",
  ruleId: "r1",
  startedAt: "2026-12-01T12:00:00.000Z",
  metrics: [{ key: "errors", event: "error", windowHours: 24 }, { key: "buys", event: "purchase" }],
  preWindowDays: 0,
  rampedVariationKey: "new"
}

const exposure = (unit: string, variationKey: string, timestamp: string) => ({ flagKey: "checkout", ruleId: "r1", unit, variationKey, timestamp })

describe("keptExposures with a release plan", () => {
  it("keeps an exposure once for each rule measuring it, from each one's start, the plan's by arm", () => {
    const kept = keptExposures(
      [
        exposure("u1", "new", "2026-12-01T06:00:00.000Z"), // before the plan started
        exposure("u2", "new", "2026-12-01T13:00:00.000Z"),
        exposure("u3", "old", "2026-12-01T13:00:00.000Z"),
        exposure("u4", "legacy", "2026-12-01T13:00:00.000Z"),
        { ...exposure("u5", "new", "2026-12-01T13:00:00.000Z"), ruleId: "r2" } // another rule
      ],
      [experiment, plan]
    )
    expect(kept.map((e) => [e.experimentId, e.unit, e.variationKey])).toEqual([
      ["exp-1", "u1", "new"],
      ["exp-1", "u2", "new"],
      [plan.id, "u2", "treatment"],
      ["exp-1", "u3", "old"],
      [plan.id, "u3", "control"],
      ["exp-1", "u4", "legacy"],
      [plan.id, "u4", "control"]
    ])
  })

  it("keeps nothing for a plan that has not started", () => {
    expect(keptExposures([exposure("u2", "new", "2026-12-01T13:00:00.000Z")], [{ ...plan, startedAt: null }])).toEqual([])
  })
})

describe("keptEvents with a release plan", () => {
  it("feeds each metric naming the event, the plan's with its window and no covariate period", () => {
    const now = Date.parse("2026-12-01T13:00:00.000Z")
    const { dropped, kept } = keptEvents(
      [{ event: "error", unit: "u1" }, { event: "purchase", unit: "u1", value: 30 }, { event: "signup", unit: "u1" }],
      [experiment, plan],
      now
    )
    expect(dropped).toBe(1)
    expect(kept.map((e) => [e.experimentId, e.metricKey, e.value, e.windowMs, e.preWindowMs])).toEqual([
      [plan.id, "errors", 1, 24 * 3_600_000, 0],
      ["exp-1", "purchases", 30, null, 7 * 86_400_000],
      [plan.id, "buys", 30, null, 0]
    ])
  })
})

describe("measuredRulesOf", () => {
  it("names a rule measured twice once, what a snapshot tells SDKs", () => {
    expect(measuredRulesOf([experiment, plan, { ...experiment, id: "exp-2", flagKey: "search" }])).toEqual([
      { flagKey: "checkout", ruleId: "r1" },
      { flagKey: "search", ruleId: "r1" }
    ])
  })
})
