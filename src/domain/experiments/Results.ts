import * as Schema from "effect/Schema"
import { Actor } from "../audit/Actor.js"
import { Timestamp } from "../definitions/Ids.js"
import { documentName } from "../DocumentName.js"
import { AnalysisMethod } from "./Experiment.js"

/**
 * The answer of `GET .../experiments/{key}/results` (docs/guide/experiments.md, "Reading the
 * results"): per metric and variation the figures, per treatment against the control the
 * estimates and a goal-aware verdict, and the checks that say whether to trust them at all.
 */

const Interval = Schema.Tuple(Schema.Number, Schema.Number).annotations({ description: "[lower, upper] at 1 − alpha." })

const Estimate = Schema.Struct({
  estimate: Schema.Number,
  /** null until the data can give one (fewer than two units in an arm, no spread at all). */
  ci: Schema.NullOr(Interval)
}).annotations(documentName("ResultEstimate"))

export const Verdict = Schema.Literal("better", "worse", "inconclusive")

const VariationFigures = Schema.Struct({
  variationKey: Schema.String,
  units: Schema.Number,
  mean: Schema.Number,
  variance: Schema.Number
}).annotations(documentName("VariationFigures"))

const TreatmentComparison = Schema.Struct({
  variationKey: Schema.String,
  absolute: Schema.NullOr(Estimate),
  relative: Schema.NullOr(Estimate),
  pValue: Schema.NullOr(Schema.Number),
  chanceToBeatControl: Schema.NullOr(Schema.Number),
  cupedApplied: Schema.Boolean,
  verdict: Verdict
}).annotations(documentName("TreatmentComparison"))

const MetricResult = Schema.Struct({
  key: Schema.String,
  event: Schema.String,
  kind: Schema.Literal("conversion", "mean"),
  goal: Schema.Literal("increase", "decrease"),
  role: Schema.Literal("primary", "secondary", "guardrail"),
  variations: Schema.Array(VariationFigures),
  comparisons: Schema.Array(TreatmentComparison)
}).annotations(documentName("MetricResult"))

const SampleRatio = Schema.Struct({
  variations: Schema.Array(Schema.Struct({ variationKey: Schema.String, weight: Schema.Number, units: Schema.Number, expectedUnits: Schema.Number })),
  chiSquare: Schema.Number,
  pValue: Schema.Number,
  /** p < 0.001: the split is not what the rollout asked for, and no figure below should be trusted. */
  mismatch: Schema.Boolean
}).annotations(documentName("SampleRatioCheck"))

const TargetingChange = Schema.Struct({
  at: Timestamp,
  action: Schema.String,
  actor: Actor
}).annotations(documentName("TargetingChange"))

export const ResultChecks = Schema.Struct({
  /** null when the rule has no rollout any more to compare the split with. */
  sampleRatio: Schema.NullOr(SampleRatio),
  /** Units exposed to more than one variation: left out of every figure. */
  unitsInSeveralVariations: Schema.Number,
  /** Changes to the flag's targeting in the experiment's environment (or to its variations) while it ran, oldest first. */
  targetingChanges: Schema.Array(TargetingChange),
  /** Some variation has fewer than `minimumUnits` units: every verdict is `inconclusive`. */
  notEnoughData: Schema.Boolean,
  minimumUnits: Schema.Number
}).annotations(documentName("ResultChecks"))
export type ResultChecks = typeof ResultChecks.Type

export const ExperimentResults = Schema.Struct({
  experimentKey: Schema.String,
  status: Schema.Literal("draft", "running", "stopped"),
  controlVariationKey: Schema.String,
  method: AnalysisMethod,
  alpha: Schema.Number,
  /** false when the sample-ratio check failed: the figures are shown, but they are not evidence. */
  trustworthy: Schema.Boolean,
  checks: ResultChecks,
  metrics: Schema.Array(MetricResult)
}).annotations(documentName("ExperimentResults"))
export type ExperimentResults = typeof ExperimentResults.Type
