/**
 * CUPED on simulated experiments whose metric correlates with its pre-exposure covariate: the
 * interval is never wider than the unadjusted one, and with a correlation of 0.5 or more the
 * adjustment is always applied (and narrows it by far).
 */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import type { CovariateMoments } from "../../../src/domain/experiments/statistics/Cuped.js"
import { analyseMetric } from "../../../src/domain/experiments/statistics/MetricAnalysis.js"
import { normalDraw, seededRandom } from "./simulation.js"

/** One arm of units whose metric is `base + effect + slope·pre + noise`, the noise set so corr(pre, metric) = correlation. */
const arm = (random: () => number, units: number, effect: number, correlation: number): CovariateMoments => {
  let sum = 0, sumSquares = 0, preSum = 0, preSumSquares = 0, crossSum = 0
  const noise = Math.sqrt(1 - correlation * correlation) / correlation
  for (let i = 0; i < units; i++) {
    const pre = 10 + 3 * normalDraw(random)
    const metric = 5 + effect + (pre - 10) / 3 + noise * normalDraw(random)
    sum += metric
    sumSquares += metric * metric
    preSum += pre
    preSumSquares += pre * pre
    crossSum += pre * metric
  }
  return { n: units, sum, sumSquares, preSum, preSumSquares, crossSum }
}

const width = (ci: readonly [number, number] | null | undefined): number => (ci ? ci[1] - ci[0] : Number.POSITIVE_INFINITY)

describe("CUPED", () => {
  it.each(["frequentist", "sequential", "bayesian"] as const)("never widens the %s interval when pre and post correlate", (method) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 200, max: 3000 }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        (seed, units, correlation, effect) => {
          const random = seededRandom(seed)
          const arms = [
            { variationKey: "control", moments: arm(random, units, 0, correlation) },
            { variationKey: "treatment", moments: arm(random, units, effect, correlation) }
          ]
          const settings = { method, alpha: 0.05, plannedUnits: 2 * units, goal: "increase" as const }
          const [adjusted] = analyseMetric(arms, "control", { ...settings, cuped: true }).comparisons
          const [raw] = analyseMetric(arms, "control", { ...settings, cuped: false }).comparisons
          // A covariate explaining a quarter of the variance or more always narrows the intervals.
          if (correlation >= 0.5) expect(adjusted!.cupedApplied).toBe(true)
          expect(raw!.cupedApplied).toBe(false)
          expect(width(adjusted!.absolute?.ci)).toBeLessThanOrEqual(width(raw!.absolute?.ci))
          expect(width(adjusted!.relative?.ci)).toBeLessThanOrEqual(width(raw!.relative?.ci))
        }
      ),
      { numRuns: 40 }
    )
  })

  it("changes nothing when the covariate has no spread (units without history)", () => {
    const random = seededRandom(7)
    const withoutHistory = (effect: number) => ({ ...arm(random, 500, effect, 0.5), preSum: 0, preSumSquares: 0, crossSum: 0 })
    const arms = [
      { variationKey: "control", moments: withoutHistory(0) },
      { variationKey: "treatment", moments: withoutHistory(0.2) }
    ]
    const settings = { method: "frequentist" as const, alpha: 0.05, plannedUnits: 1000, goal: "increase" as const }
    const [adjusted] = analyseMetric(arms, "control", { ...settings, cuped: true }).comparisons
    const [raw] = analyseMetric(arms, "control", { ...settings, cuped: false }).comparisons
    expect(adjusted).toEqual(raw)
  })
})
