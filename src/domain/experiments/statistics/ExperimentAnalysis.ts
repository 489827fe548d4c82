import type { Method } from "./Comparison.js"
import { analyseMetric, type MetricArm, type TreatmentComparison, type VariationFigures } from "./MetricAnalysis.js"
import { type SampleRatioCheck, sampleRatioCheck } from "./SampleRatio.js"
import type { Goal } from "./Verdict.js"

/** Below this many units in any variation no verdict is given ("not enough data"). */
export const MIN_UNITS_PER_VARIATION = 100

/** A variation of the experiment's rule: its rollout weight and the units it was seen to serve. */
export interface VariationUnits {
  readonly variationKey: string
  readonly weight: number
  readonly units: number
}

export interface MetricInput {
  readonly key: string
  readonly goal: Goal
  /** Each variation's sums for this metric (a variation without any may be left out: it counts as empty). */
  readonly arms: ReadonlyArray<MetricArm>
}

export interface AnalysisSettings {
  readonly method: Method
  readonly alpha: number
  readonly cuped: boolean
  readonly plannedUnits: number
}

export interface MetricResult {
  readonly key: string
  readonly variations: ReadonlyArray<VariationFigures>
  readonly comparisons: ReadonlyArray<TreatmentComparison>
}

export interface ExperimentAnalysis {
  readonly sampleRatio: SampleRatioCheck & { readonly observed: ReadonlyArray<VariationUnits> }
  /** Some variation has fewer than `MIN_UNITS_PER_VARIATION` units: every verdict is `inconclusive`. */
  readonly notEnoughData: boolean
  readonly metrics: ReadonlyArray<MetricResult>
}

const EMPTY_ARM = { n: 0, sum: 0, sumSquares: 0, preSum: 0, preSumSquares: 0, crossSum: 0 }

/**
 * The whole analysis of an experiment from its sums: the sample-ratio check on the units per
 * variation, then every metric, every treatment against the control. Pure and total: any
 * input gives an answer, with null figures where the data cannot support one.
 */
export const analyseExperiment = (
  variations: ReadonlyArray<VariationUnits>,
  controlVariationKey: string,
  metrics: ReadonlyArray<MetricInput>,
  settings: AnalysisSettings
): ExperimentAnalysis => {
  const check = sampleRatioCheck(
    variations.map((v) => v.units),
    variations.map((v) => v.weight)
  )
  const notEnoughData = variations.some((v) => v.units < MIN_UNITS_PER_VARIATION)
  const results = metrics.map((metric): MetricResult => {
    // Every variation of the rule appears, in the rule's order, whether or not the metric saw it.
    const arms = variations.map(
      (v) => metric.arms.find((a) => a.variationKey === v.variationKey) ?? { variationKey: v.variationKey, moments: EMPTY_ARM }
    )
    const analysed = analyseMetric(arms, controlVariationKey, { ...settings, goal: metric.goal })
    const comparisons = notEnoughData ? analysed.comparisons.map((c) => ({ ...c, verdict: "inconclusive" as const })) : analysed.comparisons
    return { key: metric.key, variations: analysed.variations, comparisons }
  })
  return { sampleRatio: { ...check, observed: variations }, notEnoughData, metrics: results }
}
