/** The results' assembly: the rule's split, the checks around the figures, the flag's changes while it ran. */
import { describe, expect, it } from "vitest"
import type { AuditEntry } from "../../../src/domain/audit/AuditEntry.js"
import type { Rule } from "../../../src/domain/definitions/Targeting.js"
import type { Experiment } from "../../../src/domain/experiments/Experiment.js"
import { resultsOf, type ResultsData } from "../../../src/domain/experiments/ResultsOf.js"

const experiment: Experiment = {
  id: "e1",
  key: "checkout",
  name: "Checkout",
  flagKey: "new-checkout",
  environment: "production",
  ruleId: "half",
  controlVariationKey: "off",
  metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }],
  analysis: { method: "frequentist", alpha: 0.05, cuped: false, preWindowDays: 7, plannedUnits: 10_000 },
  status: "stopped",
  startedAt: "2026-12-01T00:00:00.000Z",
  stoppedAt: "2026-12-08T00:00:00.000Z",
  createdAt: "2026-11-30T00:00:00.000Z",
  updatedAt: "2026-12-08T00:00:00.000Z"
}
const rule: Rule = { id: "half", conditions: [], rollout: { variations: [{ variationKey: "off", weight: 50_000 }, { variationKey: "on", weight: 50_000 }] } }
const conversions = (n: number, converted: number) => ({ n, sum: converted, sumSquares: converted, preSum: 0, preSumSquares: 0, crossSum: 0 })

const entry = (at: string, action: string, environment?: string): AuditEntry => ({
  id: at,
  projectId: "p1",
  at,
  actor: { type: "cli" },
  action,
  resource: { type: "flag", key: "new-checkout" },
  ...(environment === undefined ? {} : { environment }),
  before: null,
  after: null
})

const data = (off: number, on: number, overrides: Partial<ResultsData> = {}): ResultsData => ({
  unitsPerVariation: [{ variationKey: "off", units: off }, { variationKey: "on", units: on }],
  unitsInSeveralVariations: 7,
  arms: new Map([["buys", [{ variationKey: "off", moments: conversions(off, off / 10) }, { variationKey: "on", moments: conversions(on, on / 8) }]]]),
  flagEntries: [],
  ...overrides
})

describe("resultsOf", () => {
  it("analyses each metric against the control and says the split is as the rule asked", () => {
    const results = resultsOf(experiment, rule, data(5_000, 5_040))
    expect(results.trustworthy).toBe(true)
    expect(results.checks.sampleRatio).toMatchObject({ mismatch: false, variations: [{ variationKey: "off", weight: 50_000, units: 5_000, expectedUnits: 5_020 }, { variationKey: "on", units: 5_040 }] })
    expect(results.checks).toMatchObject({ unitsInSeveralVariations: 7, notEnoughData: false, minimumUnits: 100, targetingChanges: [] })
    expect(results.metrics[0]).toMatchObject({ key: "buys", kind: "conversion", comparisons: [{ variationKey: "on", verdict: "better" }] })
  })

  it("marks a skewed split untrustworthy and keeps the figures", () => {
    const results = resultsOf(experiment, rule, data(5_000, 5_600))
    expect(results.trustworthy).toBe(false)
    expect(results.checks.sampleRatio!.mismatch).toBe(true)
    expect(results.metrics[0]!.comparisons).toHaveLength(1)
  })

  it("lists the flag's targeting changes in the environment, and its variations' changes, while it ran, oldest first", () => {
    const flagEntries = [
      entry("2026-12-05T00:00:00.000Z", "targeting.updated", "production"),
      entry("2026-12-02T00:00:00.000Z", "flag.updated"),
      entry("2026-12-03T00:00:00.000Z", "targeting.updated", "staging"),
      entry("2026-11-30T00:00:00.000Z", "targeting.updated", "production"),
      entry("2026-12-09T00:00:00.000Z", "targeting.updated", "production")
    ]
    const results = resultsOf(experiment, rule, data(5_000, 5_000, { flagEntries }))
    expect(results.checks.targetingChanges.map((c) => [c.at, c.action])).toEqual([
      ["2026-12-02T00:00:00.000Z", "flag.updated"],
      ["2026-12-05T00:00:00.000Z", "targeting.updated"]
    ])
  })

  it("shows a variation the rule no longer serves, weighted 0, and calls its units a mismatch", () => {
    const results = resultsOf(experiment, rule, data(5_000, 5_000, { unitsPerVariation: [{ variationKey: "off", units: 5_000 }, { variationKey: "on", units: 5_000 }, { variationKey: "beta", units: 40 }] }))
    expect(results.checks.sampleRatio!.variations.map((v) => [v.variationKey, v.weight, v.units])).toEqual([["off", 50_000, 5_000], ["on", 50_000, 5_000], ["beta", 0, 40]])
    expect(results.trustworthy).toBe(false)
  })

  it("without the rule's rollout has no split to check, and a draft has no data", () => {
    expect(resultsOf(experiment, undefined, data(5_000, 5_000)).checks.sampleRatio).toBeNull()
    const draft = resultsOf({ ...experiment, status: "draft", startedAt: null, stoppedAt: null }, rule, data(0, 0, { unitsInSeveralVariations: 0, arms: new Map() }))
    expect(draft.checks.notEnoughData).toBe(true)
    expect(draft.metrics[0]!.comparisons[0]).toMatchObject({ absolute: null, relative: null, verdict: "inconclusive" })
  })
})
