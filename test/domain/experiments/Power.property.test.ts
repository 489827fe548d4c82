/**
 * The frequentist test finds a real 5% relative lift about as often as the planned sample size
 * promises: with n per arm from the usual formula for 80% power at alpha 0.05, the share of
 * simulated experiments whose verdict is `better` is 80% give or take the simulation's own noise.
 */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { compare } from "../../../src/domain/experiments/statistics/Comparison.js"
import { standardNormalQuantile } from "../../../src/domain/experiments/statistics/Distributions.js"
import { Accumulator, breathe, conversionDay, seededRandom } from "./simulation.js"

const ALPHA = 0.05
const POWER = 0.8
const LIFT = 0.05
const EXPERIMENTS = 400

/** Units per arm for `POWER` to detect `base` → `base · (1 + LIFT)` with a two-sided test at `ALPHA`. */
const plannedPerArm = (base: number): number => {
  const treated = base * (1 + LIFT)
  const z = standardNormalQuantile(1 - ALPHA / 2) + standardNormalQuantile(POWER)
  return Math.ceil((z * z * (base * (1 - base) + treated * (1 - treated))) / ((treated - base) * (treated - base)))
}

describe("power at the planned size", () => {
  it("a simulated 5% lift is found in about 80% of experiments sized for 80% power", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.double({ min: 0.25, max: 0.6, noNaN: true }), async (seed, base) => {
        const random = seededRandom(seed)
        const perArm = plannedPerArm(base)
        let found = 0
        for (let e = 0; e < EXPERIMENTS; e++) {
          if (e % 25 === 0) await breathe()
          const control = new Accumulator()
          const treatment = new Accumulator()
          conversionDay(random, 2 * perArm, { control: base, treatment: base * (1 + LIFT) }, control, treatment)
          const result = compare(control.moments, treatment.moments, { method: "frequentist", alpha: ALPHA, plannedUnits: 2 * perArm, goal: "increase" })
          if (result.verdict === "better") found += 1
        }
        // 400 experiments measure a power of 0.8 with a standard error of 0.02: ±0.07 is 3.5 of them.
        expect(Math.abs(found / EXPERIMENTS - POWER), `base ${base}, ${perArm} per arm: found ${found} of ${EXPERIMENTS}`).toBeLessThanOrEqual(0.07)
      }),
      { numRuns: 2 }
    )
  }, 30_000)
})
