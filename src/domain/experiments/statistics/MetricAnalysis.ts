import * as Option from "effect/Option"
import { type Comparison, type ComparisonSettings, compare } from "./Comparison.js"
import { adjustedMoments, type CovariateMoments, cupedTheta, preMean } from "./Cuped.js"
import { mean, type Moments, sampleVariance } from "./Moments.js"
import { liftEstimate } from "./RelativeLift.js"
import { welchTest } from "./Welch.js"

/** One variation's figures for one metric (of the metric as measured, before any adjustment). */
export interface VariationFigures {
  readonly variationKey: string
  readonly units: number
  readonly mean: number
  readonly variance: number
}

export interface TreatmentComparison extends Comparison {
  readonly variationKey: string
  /** Whether the figures are on the CUPED-adjusted metric. */
  readonly cupedApplied: boolean
}

export interface MetricArm {
  readonly variationKey: string
  readonly moments: CovariateMoments
}

/**
 * CUPED is used for a comparison only when it narrows that comparison's standard errors, both the
 * difference's and the lift's (the lift's also depends on the adjusted control mean): with a
 * covariate that predicts the metric it does (by far); with one that does not (new units without
 * history, θ = 0) the raw metric is analysed and `cupedApplied` says so. The choice looks at the
 * spread only, never at the estimate, so it cannot pick the more favourable answer.
 */
const cupedNarrows = (rawC: Moments, rawT: Moments, adjC: Moments, adjT: Moments): boolean => {
  const raw = welchTest(rawC, rawT, 0.05)
  const adjusted = welchTest(adjC, adjT, 0.05)
  if (Option.isNone(raw) || Option.isNone(adjusted) || !(adjusted.value.standardError < raw.value.standardError)) return false
  const rawLift = liftEstimate(rawC, rawT)
  const adjustedLift = liftEstimate(adjC, adjT)
  return Option.isNone(rawLift) || (Option.isSome(adjustedLift) && adjustedLift.value.standardError <= rawLift.value.standardError)
}

/**
 * Every treatment of one metric against the control. `arms` holds every variation's sums, the
 * control among them; `cuped` asks for the adjustment by the pre-exposure covariate.
 */
export const analyseMetric = (
  arms: ReadonlyArray<MetricArm>,
  controlVariationKey: string,
  settings: ComparisonSettings & { readonly cuped: boolean }
): { readonly variations: ReadonlyArray<VariationFigures>; readonly comparisons: ReadonlyArray<TreatmentComparison> } => {
  const variations = arms.map((a) => ({
    variationKey: a.variationKey,
    units: a.moments.n,
    mean: mean(a.moments),
    variance: sampleVariance(a.moments)
  }))
  const control = arms.find((a) => a.variationKey === controlVariationKey)
  if (control === undefined) return { variations, comparisons: [] }
  const all = arms.map((a) => a.moments)
  const theta = settings.cuped ? cupedTheta(all) : 0
  const pivot = preMean(all)
  const comparisons = arms
    .filter((a) => a.variationKey !== controlVariationKey)
    .map((treatment): TreatmentComparison => {
      const adjC = adjustedMoments(control.moments, theta, pivot)
      const adjT = adjustedMoments(treatment.moments, theta, pivot)
      const cupedApplied = theta !== 0 && cupedNarrows(control.moments, treatment.moments, adjC, adjT)
      const comparison = cupedApplied ? compare(adjC, adjT, settings) : compare(control.moments, treatment.moments, settings)
      return { variationKey: treatment.variationKey, cupedApplied, ...comparison }
    })
  return { variations, comparisons }
}
