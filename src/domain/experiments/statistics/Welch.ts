import * as Option from "effect/Option"
import { studentTQuantile, twoSidedStudentP } from "./Distributions.js"
import { around, type Interval } from "./Interval.js"
import { mean, type Moments, sampleVariance } from "./Moments.js"

/** Welch's t test of `mean(treatment) − mean(control)`, two-sided. */
export interface WelchTest {
  readonly difference: number
  readonly standardError: number
  /** Welch–Satterthwaite. */
  readonly degreesOfFreedom: number
  readonly t: number
  readonly pValue: number
  /** At 1 − alpha, with the t quantile at 1 − alpha/2. */
  readonly ci: Interval
}

/**
 * Welch's unequal-variance t test from each arm's moments. None when it has no answer: an arm
 * with fewer than two units, or both arms without any spread (the standard error is 0).
 */
export const welchTest = (control: Moments, treatment: Moments, alpha: number): Option.Option<WelchTest> => {
  if (control.n < 2 || treatment.n < 2) return Option.none()
  const shareC = sampleVariance(control) / control.n
  const shareT = sampleVariance(treatment) / treatment.n
  const variance = shareC + shareT
  if (!(variance > 0) || !Number.isFinite(variance)) return Option.none()
  const standardError = Math.sqrt(variance)
  const difference = mean(treatment) - mean(control)
  const degreesOfFreedom = (variance * variance) / ((shareC * shareC) / (control.n - 1) + (shareT * shareT) / (treatment.n - 1))
  const t = difference / standardError
  const ci = around(difference, studentTQuantile(1 - alpha / 2, degreesOfFreedom) * standardError)
  const pValue = twoSidedStudentP(t, degreesOfFreedom)
  // Sums at the edge of floating point (spreads near 1e-300) underflow the degrees of freedom:
  // no answer rather than NaN.
  return [degreesOfFreedom, t, pValue, ci[0], ci[1]].every(Number.isFinite)
    ? Option.some({ difference, standardError, degreesOfFreedom, t, pValue, ci })
    : Option.none()
}
