import * as Option from "effect/Option"
import { bayesianLift, chanceToBeatControl } from "./Bayesian.js"
import { confidenceSequence } from "./ConfidenceSequence.js"
import { standardNormalQuantile } from "./Distributions.js"
import { around, type Interval } from "./Interval.js"
import { mean, type Moments } from "./Moments.js"
import { relativeLift } from "./RelativeLift.js"
import { type Goal, type Verdict, verdictOf } from "./Verdict.js"
import { welchTest } from "./Welch.js"

export type Method = "sequential" | "frequentist" | "bayesian"

/** How one metric is analysed: the experiment's method and alpha, the sequential tuning, the metric's goal. */
export interface ComparisonSettings {
  readonly method: Method
  readonly alpha: number
  readonly plannedUnits: number
  readonly goal: Goal
}

/** A figure with its interval at 1 − alpha; null where the data cannot give one. */
export interface Estimate {
  readonly estimate: number
  readonly ci: Interval | null
}

/** One treatment against the control (the contract's figures; null where the method gives none). */
export interface Comparison {
  readonly absolute: Estimate | null
  readonly relative: Estimate | null
  /** Frequentist (Welch) and sequential (always-valid, on the relative lift). */
  readonly pValue: number | null
  /** Bayesian only, for the metric's goal. */
  readonly chanceToBeatControl: number | null
  readonly verdict: Verdict
}

const estimateOf = (estimate: number, ci: Option.Option<Interval>): Estimate => ({ estimate, ci: Option.getOrNull(ci) })

/**
 * Compares a treatment with the control by the chosen method:
 * - frequentist: Welch's t test on the difference (its p-value and interval), the relative lift
 *   by the delta method;
 * - bayesian: the normal approximation of the relative lift (its credible interval, and the chance
 *   to beat the control), the difference with a normal interval;
 * - sequential: the always-valid confidence sequence on the relative lift (with its always-valid
 *   p-value), and on the difference.
 * The verdict is the one rule's (Verdict.ts): both intervals shown must agree.
 */
export const compare = (control: Moments, treatment: Moments, settings: ComparisonSettings): Comparison => {
  const { alpha, goal } = settings
  const welch = welchTest(control, treatment, alpha)
  const relative = relativeLift(control, treatment, alpha)
  // The point estimates exist as soon as both arms have a unit (and the control a mean to divide
  // by), even where no interval does yet (too few units, or no spread at all).
  const difference = control.n > 0 && treatment.n > 0 ? Option.some(mean(treatment) - mean(control)) : Option.none<number>()
  const lift = Option.filter(difference, () => mean(control) !== 0).pipe(
    Option.map(() => mean(treatment) / mean(control) - 1),
    Option.filter(Number.isFinite)
  )
  const figures = (absoluteCi: Option.Option<Interval>, relativeCi: Option.Option<Interval>) => ({
    absolute: Option.getOrNull(Option.map(difference, (d) => estimateOf(d, absoluteCi))),
    relative: Option.getOrNull(Option.map(lift, (l) => estimateOf(l, relativeCi)))
  })
  /** The figures with the verdict the one rule (Verdict.ts) gives them. */
  const judged = (absoluteCi: Option.Option<Interval>, relativeCi: Option.Option<Interval>) => {
    const shown = figures(absoluteCi, relativeCi)
    return { ...shown, verdict: verdictOf(shown, mean(control), goal) }
  }

  switch (settings.method) {
    case "frequentist": {
      const absoluteCi = Option.map(welch, (w) => w.ci)
      return {
        ...judged(absoluteCi, Option.map(relative, (r) => r.ci)),
        pValue: Option.getOrNull(Option.map(welch, (w) => w.pValue)),
        chanceToBeatControl: null
      }
    }
    case "bayesian": {
      const posterior = bayesianLift(control, treatment, alpha)
      const z = standardNormalQuantile(1 - alpha / 2)
      const absoluteCi = Option.map(welch, (w) => around(w.difference, z * w.standardError))
      const credible = Option.map(posterior, (p) => p.credibleInterval)
      return {
        ...judged(absoluteCi, credible),
        pValue: null,
        chanceToBeatControl: Option.getOrNull(Option.map(posterior, (p) => chanceToBeatControl(p, goal)))
      }
    }
    case "sequential": {
      const units = control.n + treatment.n
      const onLift = Option.flatMap(relative, (r) => confidenceSequence(r.lift, r.standardError, units, alpha, settings.plannedUnits))
      const onDifference = Option.flatMap(welch, (w) => confidenceSequence(w.difference, w.standardError, units, alpha, settings.plannedUnits))
      const absoluteCi = Option.map(onDifference, (s) => s.ci)
      const relativeCi = Option.map(onLift, (s) => s.ci)
      return {
        ...judged(absoluteCi, relativeCi),
        pValue: Option.getOrNull(Option.map(Option.orElse(onLift, () => onDifference), (s) => s.pValue)),
        chanceToBeatControl: null
      }
    }
  }
}
