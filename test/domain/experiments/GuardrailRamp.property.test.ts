/**
 * The guardrail's promise, simulated on the domain function: a ramp checked after every batch of
 * arriving units (many checks per step) whose treatment changes nothing is stopped in at most
 * alpha of 200 runs; one whose treatment doubles the error rate is stopped before its third step
 * in at least 95% of 200 runs. Units are bucketed once (stable, as the evaluator buckets): a unit
 * arriving while the weight is w is in the treatment when its bucket is below w. The same check
 * through a real server is test/http/ReleasePlanGuardrails.test.ts.
 */
import { describe, expect, it } from "vitest"
import { checkGuardrails } from "../../../src/domain/experiments/Guardrail.js"
import { compare } from "../../../src/domain/experiments/statistics/Comparison.js"
import { Accumulator, breathe, seededRandom } from "./simulation.js"

const RUNS = 200
const ALPHA = 0.05
/** The usual day template, in thousandths of a percent. */
const STEPS = [5_000, 25_000, 50_000, 100_000]
const CHECKS_PER_STEP = 20
const UNITS_PER_CHECK = 200
const BASE_ERROR_RATE = 0.05

interface RunOutcome {
  /** The index of the step during which the plan was stopped, or null when it completed. */
  readonly stoppedInStep: number | null
  /** Whether the fixed-horizon test, peeked at the same checks, would have called harm at some check. */
  readonly peekingWouldStop: boolean
}

const runRamp = (random: () => number, treatmentErrorRate: number): RunOutcome => {
  const control = new Accumulator()
  const treatment = new Accumulator()
  let peekingWouldStop = false
  // The last step (100%) has no control left to compare with: the plan completes when it applies.
  for (let step = 0; step < STEPS.length - 1; step++) {
    const weight = STEPS[step]! / 100_000
    for (let check = 0; check < CHECKS_PER_STEP; check++) {
      for (let u = 0; u < UNITS_PER_CHECK; u++) {
        if (random() < weight) treatment.add(random() < treatmentErrorRate ? 1 : 0)
        else control.add(random() < BASE_ERROR_RATE ? 1 : 0)
      }
      const result = checkGuardrails(
        [{ key: "errors", goal: "decrease", control: control.moments, treatment: treatment.moments }],
        { alpha: ALPHA, plannedUnits: 10_000 }
      )
      if (result.outcome === "harmed") return { stoppedInStep: step, peekingWouldStop: true }
      const fixed = compare(control.moments, treatment.moments, { method: "frequentist", alpha: ALPHA, plannedUnits: 10_000, goal: "decrease" })
      if (treatment.n >= 100 && fixed.verdict === "worse") peekingWouldStop = true
    }
  }
  return { stoppedInStep: null, peekingWouldStop }
}

const simulate = async (seed: number, treatmentErrorRate: number): Promise<ReadonlyArray<RunOutcome>> => {
  const random = seededRandom(seed)
  const outcomes: Array<RunOutcome> = []
  for (let run = 0; run < RUNS; run++) {
    if (run % 20 === 0) await breathe()
    outcomes.push(runRamp(random, treatmentErrorRate))
  }
  return outcomes
}

describe("a release plan's ramp checked after every batch of units, 200 runs", () => {
  it("an A/A ramp (the treatment changes nothing) is stopped in at most alpha of the runs", async () => {
    for (const seed of [20_261_207, 43]) {
      const outcomes = await simulate(seed, BASE_ERROR_RATE)
      const stopped = outcomes.filter((o) => o.stoppedInStep !== null).length
      const peeking = outcomes.filter((o) => o.peekingWouldStop).length
      console.info(`A/A, seed ${seed}: stopped ${stopped} of ${RUNS} (${CHECKS_PER_STEP * 3} checks each); the fixed-horizon test peeked at as often: ${peeking}`)
      expect(stopped / RUNS).toBeLessThanOrEqual(ALPHA)
      // The simulation can tell: the fixed-horizon test, looked at as often, calls harm where there is none.
      expect(peeking / RUNS).toBeGreaterThan(ALPHA)
    }
  }, 30_000)

  it("a ramp whose treatment doubles the error rate is stopped before its third step in at least 95% of the runs", async () => {
    for (const seed of [20_261_207, 43]) {
      const outcomes = await simulate(seed, 2 * BASE_ERROR_RATE)
      const early = outcomes.filter((o) => o.stoppedInStep !== null && o.stoppedInStep < 2).length
      console.info(`doubled errors, seed ${seed}: stopped before the third step in ${early} of ${RUNS}`)
      expect(early / RUNS).toBeGreaterThanOrEqual(0.95)
    }
  }, 30_000)
})
