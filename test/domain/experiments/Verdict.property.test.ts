/**
 * The verdict follows the metric's goal and never contradicts an interval the result shows (the
 * one rule, Verdict.ts), and the engine is total: any sums, even an empty arm or one without
 * spread, give JSON-safe figures (numbers or null, never NaN or infinity).
 */
import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { compare, type Method } from "../../../src/domain/experiments/statistics/Comparison.js"
import type { Moments } from "../../../src/domain/experiments/statistics/Moments.js"

const opposite = { better: "worse", worse: "better", inconclusive: "inconclusive" } as const

/** Consistent sums of a sample: n units with a mean and a sample variance. */
const moments: fc.Arbitrary<Moments> = fc
  .record({
    n: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 100, max: 1_000_000 })),
    mean: fc.oneof(fc.constant(0), fc.double({ min: -1e4, max: 1e4, noNaN: true })),
    variance: fc.oneof(fc.constant(0), fc.double({ min: 1e-6, max: 1e6, noNaN: true }))
  })
  .map(({ n, mean, variance }) => ({ n, sum: n * mean, sumSquares: Math.max(0, n - 1) * variance + n * mean * mean }))

/** n units with this mean and sample variance, as sums. */
const sample = (n: number, mean: number, variance: number): Moments => ({ n, sum: n * mean, sumSquares: (n - 1) * variance + n * mean * mean })

const method = fc.constantFrom<Method>("sequential", "frequentist", "bayesian")
const alpha = fc.double({ min: 0.001, max: 0.5, noNaN: true })

const allFinite = (value: unknown): boolean =>
  value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)) ||
  (typeof value === "object" && Object.values(value as object).every(allFinite))

describe("verdicts", () => {
  it("flip with the goal: what raises an increase goal is worse for a decrease goal, and the chance to beat the control turns around", () => {
    fc.assert(
      fc.property(moments, moments, method, alpha, (control, treatment, m, a) => {
        const settings = { method: m, alpha: a, plannedUnits: 10_000 }
        const up = compare(control, treatment, { ...settings, goal: "increase" })
        const down = compare(control, treatment, { ...settings, goal: "decrease" })
        expect(down.verdict).toBe(opposite[up.verdict])
        expect(down.absolute).toEqual(up.absolute)
        expect(down.relative).toEqual(up.relative)
        if (up.chanceToBeatControl !== null) expect(up.chanceToBeatControl + down.chanceToBeatControl!).toBeCloseTo(1, 9)
      }),
      { numRuns: 2000 }
    )
  })

  it("are decided: a clear rise is better for an increase goal and worse for a decrease goal, by every method", () => {
    const control = { n: 10_000, sum: 1_000, sumSquares: 1_000 }
    const treatment = { n: 10_000, sum: 1_400, sumSquares: 1_400 }
    for (const m of ["sequential", "frequentist", "bayesian"] as const) {
      expect(compare(control, treatment, { method: m, alpha: 0.05, plannedUnits: 20_000, goal: "increase" }).verdict).toBe("better")
      expect(compare(control, treatment, { method: m, alpha: 0.05, plannedUnits: 20_000, goal: "decrease" }).verdict).toBe("worse")
    }
  })

  it("never contradict an interval the result shows: better or worse only when the difference's and the lift's both exclude zero, on the sides of one change", () => {
    fc.assert(
      fc.property(moments, moments, method, alpha, (control, treatment, m, a) => {
        const result = compare(control, treatment, { method: m, alpha: a, plannedUnits: 10_000, goal: "increase" })
        if (result.verdict === "inconclusive") return
        const difference = result.absolute!.ci!
        expect(difference[0] > 0 || difference[1] < 0).toBe(true)
        expect(result.verdict).toBe(difference[0] > 0 ? "better" : "worse")
        if (result.relative !== null) {
          const lift = result.relative.ci!
          expect(lift[0] > 0 || lift[1] < 0).toBe(true)
          // The lift's sign is the change's over a positive control mean, the opposite over a negative one.
          expect(lift[0] > 0).toBe((difference[0] > 0) === control.sum > 0)
        }
      }),
      { numRuns: 2000 }
    )
  })

  it("are inconclusive when the difference's interval excludes zero but the lift's does not (the frequentist method once said better)", () => {
    // Difference 0.3 with standard error 0.141 (t = 2.12); lift 0.3 with standard error 0.164 (z = 1.83).
    const result = compare(sample(100, 1, 1), sample(100, 1.3, 1), { method: "frequentist", alpha: 0.05, plannedUnits: 10_000, goal: "increase" })
    expect(result.absolute!.ci![0]).toBeGreaterThan(0)
    expect(result.relative!.ci![0]).toBeLessThan(0)
    expect(result.verdict).toBe("inconclusive")
  })

  it("follow the change, not the lift's sign, over a negative control mean (a rise from -10 to -5 is a lift of -50%)", () => {
    const control = sample(10_000, -10, 1)
    const treatment = sample(10_000, -5, 1)
    for (const m of ["sequential", "frequentist", "bayesian"] as const) {
      const up = compare(control, treatment, { method: m, alpha: 0.05, plannedUnits: 20_000, goal: "increase" })
      expect(up.relative!.estimate).toBeCloseTo(-0.5, 9)
      expect(up.verdict, m).toBe("better")
      expect(compare(control, treatment, { method: m, alpha: 0.05, plannedUnits: 20_000, goal: "decrease" }).verdict, m).toBe("worse")
      if (m === "bayesian") expect(up.chanceToBeatControl).toBeGreaterThan(0.999)
    }
  })

  it("are total over a control mean next to zero: the lift's standard error is huge, and the sequential interval is absent, not infinite", () => {
    // Found by the property below (seed 1988162519): squaring a standard error near 1e154 overflowed.
    const control = { n: 100, sum: -3.9645022193241724e-80, sumSquares: 0.000099 }
    const treatment = { n: 2, sum: -0.00000590173925743505, sumSquares: 0.0000010000174152631313 }
    const result = compare(control, treatment, { method: "sequential", alpha: 0.001, plannedUnits: 10_000, goal: "increase" })
    expect(allFinite(result), JSON.stringify(result)).toBe(true)
    expect(result.verdict).toBe("inconclusive")
  })

  it("are total: any sums give numbers or null, never NaN or infinity", () => {
    fc.assert(
      fc.property(moments, moments, method, alpha, (control, treatment, m, a) => {
        const result = compare(control, treatment, { method: m, alpha: a, plannedUnits: 10_000, goal: "increase" })
        expect(allFinite(result), JSON.stringify(result)).toBe(true)
        if (control.n === 0 || treatment.n === 0) expect(result).toMatchObject({ absolute: null, relative: null, verdict: "inconclusive" })
      }),
      { numRuns: 2000 }
    )
  })
})
