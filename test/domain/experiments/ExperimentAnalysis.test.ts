/** The analysis of a whole experiment: the sample-ratio check, "not enough data", every metric and treatment. */
import { describe, expect, it } from "vitest"
import { analyseExperiment } from "../../../src/domain/experiments/statistics/ExperimentAnalysis.js"
import { twoSidedNormalP } from "../../../src/domain/experiments/statistics/Distributions.js"
import { sampleRatioCheck } from "../../../src/domain/experiments/statistics/SampleRatio.js"

const conversions = (n: number, converted: number) => ({ n, sum: converted, sumSquares: converted, preSum: 0, preSumSquares: 0, crossSum: 0 })
const settings = { method: "frequentist" as const, alpha: 0.05, cuped: true, plannedUnits: 10_000 }

describe("the sample-ratio check", () => {
  it("accepts a split that matches the weights and flags one that does not", () => {
    expect(sampleRatioCheck([5_010, 4_990], [50_000, 50_000]).mismatch).toBe(false)
    const skewed = sampleRatioCheck([5_300, 4_700], [50_000, 50_000])
    expect(skewed.mismatch).toBe(true)
    expect(skewed.chiSquare).toBeCloseTo(36, 9)
  })

  it("keeps the digits of a tiny p-value instead of rounding 1 − cdf to 0", () => {
    // χ² = 160 on one degree of freedom: its upper tail is the normal's two-sided tail at √160.
    const check = sampleRatioCheck([52_000, 48_000], [50_000, 50_000])
    expect(check.chiSquare).toBeCloseTo(160, 9)
    expect(check.pValue).toBeGreaterThan(0)
    expect(Math.abs(check.pValue / twoSidedNormalP(Math.sqrt(160)) - 1)).toBeLessThan(1e-9)
  })

  it("calls units in a variation weighted 0 a mismatch, and nothing to compare no mismatch", () => {
    expect(sampleRatioCheck([500, 500, 3], [50_000, 50_000, 0])).toMatchObject({ pValue: 0, mismatch: true })
    expect(sampleRatioCheck([500, 500, 0], [50_000, 50_000, 0]).mismatch).toBe(false)
    expect(sampleRatioCheck([0, 0], [50_000, 50_000])).toEqual({ chiSquare: 0, pValue: 1, mismatch: false })
    expect(sampleRatioCheck([10], [100_000])).toEqual({ chiSquare: 0, pValue: 1, mismatch: false })
  })
})

describe("analyseExperiment", () => {
  const variations = [
    { variationKey: "off", weight: 50_000, units: 5_000 },
    { variationKey: "on", weight: 50_000, units: 5_000 }
  ]
  const metric = { key: "checkout", goal: "increase" as const, arms: [{ variationKey: "off", moments: conversions(5_000, 500) }, { variationKey: "on", moments: conversions(5_000, 650) }] }

  it("compares every treatment with the control and gives every variation's figures", () => {
    const result = analyseExperiment(variations, "off", [metric], settings)
    expect(result.notEnoughData).toBe(false)
    expect(result.sampleRatio.mismatch).toBe(false)
    const [checkout] = result.metrics
    expect(checkout!.variations.map((v) => [v.variationKey, v.units, v.mean])).toEqual([["off", 5_000, 0.1], ["on", 5_000, 0.13]])
    expect(checkout!.comparisons).toHaveLength(1)
    expect(checkout!.comparisons[0]).toMatchObject({ variationKey: "on", verdict: "better", cupedApplied: false })
    expect(checkout!.comparisons[0]!.relative!.estimate).toBeCloseTo(0.3, 12)
  })

  it("gives no verdict while some variation has fewer than 100 units", () => {
    const few = [{ ...variations[0]!, units: 99 }, variations[1]!]
    const result = analyseExperiment(few, "off", [{ ...metric, arms: [{ variationKey: "off", moments: conversions(99, 5) }, metric.arms[1]!] }], settings)
    expect(result.notEnoughData).toBe(true)
    expect(result.metrics[0]!.comparisons[0]!.verdict).toBe("inconclusive")
    expect(result.metrics[0]!.comparisons[0]!.pValue).toBeLessThan(0.05)
  })

  it("shows a variation the metric never saw as empty, in the rule's order", () => {
    const result = analyseExperiment(variations, "off", [{ ...metric, arms: [metric.arms[1]!] }], settings)
    expect(result.metrics[0]!.variations.map((v) => [v.variationKey, v.units])).toEqual([["off", 0], ["on", 5_000]])
    expect(result.metrics[0]!.comparisons[0]).toMatchObject({ absolute: null, relative: null, pValue: null, verdict: "inconclusive" })
  })
})
