/**
 * An experiment's results (`GET .../experiments/{key}/results`) as the dashboard reads them: per
 * metric each variation's units, mean and variance, and each treatment against the control (the
 * absolute and relative differences with their intervals, a p-value or a chance to beat the
 * control, whether CUPED narrowed it, a goal-aware verdict); and the checks that come with every
 * result (sample ratio, units seen in several variations, targeting changes while it ran, too few
 * units). The types are the API's schemas (api-types.ts, generated from docs/openapi.json).
 * `readAt` is when the page read them: the "now" of a running experiment's timeline.
 */
import { projectPath, request, seg } from "./api.js"
import type { components } from "./api-types.js"

export type ExperimentResults = components["schemas"]["ExperimentResults"]
export type MetricResult = ExperimentResults["metrics"][number]
export type VariationFigures = MetricResult["variations"][number]
export type TreatmentComparison = MetricResult["comparisons"][number]
/** An estimate with its interval `[lower, upper]` at 1 − alpha; `ci` null until the data can give one. */
export type Estimate = NonNullable<TreatmentComparison["relative"]>
export type Verdict = TreatmentComparison["verdict"]
export type ResultChecks = ExperimentResults["checks"]
/** p < 0.001 marks a `mismatch`: the split is not the one the rollout asks for. */
export type SampleRatioCheck = NonNullable<ResultChecks["sampleRatio"]>
export type TargetingChange = ResultChecks["targetingChanges"][number]

export const loadResults = async (projectId: string, key: string): Promise<ExperimentResults & { readonly readAt: string }> => ({
  ...(await request<ExperimentResults>("GET", projectPath(projectId, `/experiments/${seg(key)}/results`))),
  readAt: new Date().toISOString()
})
