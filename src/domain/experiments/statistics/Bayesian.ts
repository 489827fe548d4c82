import * as Option from "effect/Option"
import { standardNormalCdf, standardNormalQuantile } from "./Distributions.js"
import { around, type Interval } from "./Interval.js"
import { liftEstimate } from "./RelativeLift.js"
import type { Moments } from "./Moments.js"

/** The Bayesian reading of the relative lift: a flat prior and the normal approximation of its posterior. */
export interface BayesianLift {
  readonly lift: number
  readonly standardError: number
  /**
   * How many standard errors the posterior lies on the side of a rise of the metric: lift / se for
   * a control mean above zero; over a negative control mean a positive lift is a fall, so −lift / se.
   */
  readonly riseScore: number
  /** The posterior probability that the treatment's mean is above the control's: Φ(riseScore). */
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
  Option.map(liftEstimate(control, treatment), (e) => {
    const riseScore = (control.sum < 0 ? -e.lift : e.lift) / e.standardError
    return {
      ...e,
      riseScore,
      chanceOfIncrease: standardNormalCdf(riseScore),
      credibleInterval: around(e.lift, standardNormalQuantile(1 - alpha / 2) * e.standardError)
    }
  })

/** The chance the treatment beats the control for this goal: for a decrease goal, the chance it lowers the metric
 * (Φ(−riseScore), which is 1 − Φ(riseScore) without losing the digits of a chance near 1). */
export const chanceToBeatControl = (result: BayesianLift, goal: "increase" | "decrease"): number =>
  goal === "increase" ? result.chanceOfIncrease : standardNormalCdf(-result.riseScore)
