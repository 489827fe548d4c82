import * as Option from "effect/Option"
import { standardNormalCdf, standardNormalQuantile } from "./Distributions.js"
import { around, type Interval } from "./Interval.js"
import { liftEstimate } from "./RelativeLift.js"
import type { Moments } from "./Moments.js"

/** The Bayesian reading of the relative lift: a flat prior and the normal approximation of its posterior. */
export interface BayesianLift {
  readonly lift: number
  readonly standardError: number
  /** The posterior probability that the treatment's mean is above the control's: Φ(lift / se). */
  readonly chanceOfIncrease: number
  /** `lift ± z(1 − alpha/2) · se`. */
  readonly credibleInterval: Interval
}

/**
 * With a flat prior the posterior of the lift is (approximately) normal around the delta-method
 * estimate with its standard error, so the chance the treatment raises the metric is Φ(lift / se).
 * Whether that is the chance to beat the control depends on the goal (see `chanceToBeatControl`).
 */
export const bayesianLift = (control: Moments, treatment: Moments, alpha: number): Option.Option<BayesianLift> =>
  Option.map(liftEstimate(control, treatment), (e) => ({
    ...e,
    chanceOfIncrease: standardNormalCdf(e.lift / e.standardError),
    credibleInterval: around(e.lift, standardNormalQuantile(1 - alpha / 2) * e.standardError)
  }))

/** The chance the treatment beats the control for this goal: for a decrease goal, the chance it lowers the metric
 * (Φ(−lift / se), which is 1 − Φ(lift / se) without losing the digits of a chance near 1). */
export const chanceToBeatControl = (result: BayesianLift, goal: "increase" | "decrease"): number =>
  goal === "increase" ? result.chanceOfIncrease : standardNormalCdf(-result.lift / result.standardError)
