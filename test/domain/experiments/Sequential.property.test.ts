/**
 * Why the sequential method is the default: an A/A experiment (no real difference) looked at
 * after every simulated day. The always-valid confidence sequence ever declares a difference in
 * at most alpha of them, however often it is looked at; the fixed-horizon test, peeked at the
 * same way, declares one far more often than its alpha promises. Both rates are measured here.
 */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { compare, type Method } from "../../../src/domain/experiments/statistics/Comparison.js"
import { MIN_UNITS_PER_VARIATION } from "../../../src/domain/experiments/statistics/ExperimentAnalysis.js"
import { Accumulator, breathe, conversionDay, seededRandom } from "./simulation.js"

const EXPERIMENTS = 1000
const DAYS = 30
const UNITS_PER_DAY = 300
const ALPHA = 0.05

/** The share of A/A experiments that some day's look called `better` or `worse`, for each method. */
const falseAlarms = async (seed: number, rate: number): Promise<Record<"sequential" | "frequentist", number>> => {
  const random = seededRandom(seed)
  const alarms = { sequential: 0, frequentist: 0 }
  for (let e = 0; e < EXPERIMENTS; e++) {
    if (e % 100 === 0) await breathe()
    const control = new Accumulator()
    const treatment = new Accumulator()
    const raised = { sequential: false, frequentist: false }
    for (let day = 0; day < DAYS; day++) {
      conversionDay(random, UNITS_PER_DAY, { control: rate, treatment: rate }, control, treatment)
      if (control.n < MIN_UNITS_PER_VARIATION || treatment.n < MIN_UNITS_PER_VARIATION) continue
      for (const method of ["sequential", "frequentist"] as const satisfies ReadonlyArray<Method>) {
        const settings = { method, alpha: ALPHA, plannedUnits: DAYS * UNITS_PER_DAY, goal: "increase" as const }
        if (!raised[method] && compare(control.moments, treatment.moments, settings).verdict !== "inconclusive") raised[method] = true
      }
    }
    if (raised.sequential) alarms.sequential += 1
    if (raised.frequentist) alarms.frequentist += 1
  }
  return { sequential: alarms.sequential / EXPERIMENTS, frequentist: alarms.frequentist / EXPERIMENTS }
}

describe("peeking after every day at 1,000 A/A experiments", () => {
  it("the confidence sequence's false-alarm rate stays at most alpha; the fixed-horizon test's exceeds it", async () => {
    const seen: Array<string> = []
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.double({ min: 0.05, max: 0.5, noNaN: true }), async (seed, rate) => {
        const rates = await falseAlarms(seed, rate)
        seen.push(`seed ${seed} rate ${rate.toFixed(3)}: sequential ${rates.sequential}, fixed-horizon ${rates.frequentist}`)
        expect(rates.sequential).toBeLessThanOrEqual(ALPHA)
        expect(rates.frequentist).toBeGreaterThan(ALPHA)
      }),
      { numRuns: 1 }
    )
    console.info(seen.join("\n"))
  }, 30_000)
})
