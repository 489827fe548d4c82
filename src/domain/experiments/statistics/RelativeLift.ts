import * as Option from "effect/Option"
import { standardNormalQuantile, twoSidedNormalP } from "./Distributions.js"
import { around, type Interval } from "./Interval.js"
import { mean, type Moments, sampleVariance } from "./Moments.js"

/** The relative lift `mean_t / mean_c − 1` with its delta-method standard error. */
export interface LiftEstimate {
  readonly lift: number
  readonly standardError: number
}

/** The lift with its normal (fixed-horizon) p-value and interval. */
export interface RelativeLift extends LiftEstimate {
  readonly pValue: number
  /** At 1 − alpha, with the normal quantile at 1 − alpha/2. */
  readonly ci: Interval
}

/**
 * The lift and its delta-method standard error,
 * `se² = var_t / (n_t mean_c²) + mean_t² var_c / (n_c mean_c⁴)`. None when it has no answer: an
 * arm with fewer than two units, a control mean of 0 (no lift relative to nothing), or no spread.
 */
export const liftEstimate = (control: Moments, treatment: Moments): Option.Option<LiftEstimate> => {
  if (control.n < 2 || treatment.n < 2) return Option.none()
  const meanC = mean(control)
  const meanT = mean(treatment)
  if (meanC === 0) return Option.none()
  const meanC2 = meanC * meanC
  const variance = sampleVariance(treatment) / (treatment.n * meanC2) + (meanT * meanT * sampleVariance(control)) / (control.n * meanC2 * meanC2)
  const lift = meanT / meanC - 1
  if (!(variance > 0) || !Number.isFinite(variance) || !Number.isFinite(lift) || !Number.isFinite(lift / Math.sqrt(variance))) return Option.none()
  return Option.some({ lift, standardError: Math.sqrt(variance) })
}

/** The relative lift with a normal p-value and its interval at 1 − alpha. */
export const relativeLift = (control: Moments, treatment: Moments, alpha: number): Option.Option<RelativeLift> =>
  Option.map(liftEstimate(control, treatment), (e) => ({
    ...e,
    pValue: twoSidedNormalP(e.lift / e.standardError),
    ci: around(e.lift, standardNormalQuantile(1 - alpha / 2) * e.standardError)
  }))
