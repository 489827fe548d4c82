/**
 * An experiment's results (`GET .../experiments/{key}/results`) as the dashboard reads them: per
 * metric each variation's units, mean and variance, and each treatment against the control (the
 * absolute and relative differences with their intervals, a p-value or a chance to beat the
 * control, whether CUPED narrowed it, a goal-aware verdict); and the checks that come with every
 * result (sample ratio, units seen in several variations, targeting changes while it ran, too few
 * units). `readAt` is when the page read them: the "now" of a running experiment's timeline.
 */
import { projectPath, request, seg } from "./api.js"

export type Verdict = "better" | "worse" | "inconclusive"

/** An estimate with its interval `[lower, upper]` at 1 − alpha; `ci` null until the data can give one. */
export interface Estimate {
  readonly estimate: number
  readonly ci: readonly [number, number] | null
}

export interface VariationFigures {
  readonly variationKey: string
  readonly units: number
  readonly mean: number
  readonly variance: number
}

export interface TreatmentComparison {
  readonly variationKey: string
  readonly absolute: Estimate | null
  readonly relative: Estimate | null
  readonly pValue: number | null
  readonly chanceToBeatControl: number | null
  readonly cupedApplied: boolean
  readonly verdict: Verdict
}

export interface MetricResult {
  readonly key: string
  readonly variations: ReadonlyArray<VariationFigures>
  readonly comparisons: ReadonlyArray<TreatmentComparison>
}

export interface TargetingChange {
  readonly at: string
  readonly action: string
  readonly actor: { readonly type: string; readonly email?: string; readonly keyName?: string }
}

export interface SampleRatioCheck {
  readonly variations: ReadonlyArray<{ readonly variationKey: string; readonly weight: number; readonly units: number; readonly expectedUnits: number }>
  readonly chiSquare: number
  readonly pValue: number
  /** p < 0.001: the split is not the one the rollout asks for. */
  readonly mismatch: boolean
}

export interface ResultChecks {
  /** null when the rule has no rollout any more to compare the split with. */
  readonly sampleRatio: SampleRatioCheck | null
  /** Units exposed to more than one variation: left out of every figure. */
  readonly unitsInSeveralVariations: number
  readonly targetingChanges: ReadonlyArray<TargetingChange>
  /** Some variation has fewer than `minimumUnits` units: every verdict is inconclusive. */
  readonly notEnoughData: boolean
  readonly minimumUnits: number
}

export interface ExperimentResults {
  readonly method: "sequential" | "frequentist" | "bayesian"
  readonly alpha: number
  readonly trustworthy: boolean
  readonly checks: ResultChecks
  readonly metrics: ReadonlyArray<MetricResult>
}

export const loadResults = async (projectId: string, key: string): Promise<ExperimentResults & { readonly readAt: string }> => ({
  ...(await request<ExperimentResults>("GET", projectPath(projectId, `/experiments/${seg(key)}/results`))),
  readAt: new Date().toISOString()
})
