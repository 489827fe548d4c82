/**
 * The guardrail check of a release plan (docs/guide/release-plans.md): is the variation being
 * ramped up harming a guardrail metric? The units the plan's rule served the ramped variation
 * (the treatment) against the rest of that rule's units (the control), per metric, on the same
 * sufficient statistics and the same always-valid confidence sequence as an experiment's
 * sequential results (`statistics/Comparison.ts`).
 *
 * Why a plan may check as often as it likes: the confidence sequence holds at every look at once,
 * so a plan checked every few seconds raises no more false alarms than one checked once. With
 * several guardrails each is checked at `alpha / k` (Bonferroni), so the chance that ANY of them
 * raises a false alarm over the whole ramp stays at most `alpha`.
 *
 * Harm is goal-aware: a rise of a metric whose goal is `decrease` (errors, latency), a fall of one
 * whose goal is `increase` (sign-ups). An interval that excludes zero on the good side is no harm.
 * Below `MIN_UNITS_PER_VARIATION` units in either arm nothing is decided (the sequence is
 * asymptotic: a handful of units is not enough to trust it).
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { compare, type Estimate } from "./statistics/Comparison.js"
import { MIN_UNITS_PER_VARIATION } from "./statistics/ExperimentAnalysis.js"
import { mean, type Moments } from "./statistics/Moments.js"
import type { Goal } from "./statistics/Verdict.js"

/** The labels a plan's units are stored under: every variation but the ramped one is the control. */
export const TREATMENT_ARM = "treatment"
export const CONTROL_ARM = "control"

/** The arm of a variation a plan's rule served. */
export const armOf = (rampedVariationKey: string, servedVariationKey: string): string =>
  servedVariationKey === rampedVariationKey ? TREATMENT_ARM : CONTROL_ARM

/** One guardrail metric with its two arms' sums (units without events count in `n` with 0). */
export interface GuardrailInput {
  readonly key: string
  readonly goal: Goal
  readonly treatment: Moments
  readonly control: Moments
}

export interface GuardrailSettings {
  /** The plan's alpha: the false-alarm rate of the whole plan, over all guardrails and checks. */
  readonly alpha: number
  /** Where the confidence sequence is tightest (any value keeps the guarantee). */
  readonly plannedUnits: number
}

const Interval = Schema.Tuple(Schema.Number, Schema.Number)
const EstimateFigures = Schema.Struct({ estimate: Schema.Number, ci: Schema.NullOr(Interval) })
const ArmFigures = Schema.Struct({ units: Schema.Number, mean: Schema.Number })

/** What one guardrail showed at a check: what the audit entry, the webhook and the dashboard carry. */
export const GuardrailFigures = Schema.Struct({
  metricKey: Schema.String,
  goal: Schema.Literal("increase", "decrease"),
  treatment: ArmFigures,
  control: ArmFigures,
  /** Treatment minus control, with its always-valid interval. */
  absolute: Schema.NullOr(EstimateFigures),
  /** Treatment over control minus 1, with its always-valid interval (null when the control's mean is 0). */
  relative: Schema.NullOr(EstimateFigures),
  /** The always-valid p-value (null while the data cannot give one). */
  pValue: Schema.NullOr(Schema.Number),
  /** The level this metric was checked at: the plan's alpha over the number of guardrails. */
  alpha: Schema.Number,
  /** Fewer than the minimum units in an arm: nothing is decided yet. */
  notEnoughData: Schema.Boolean,
  harmed: Schema.Boolean
}).annotations(documentName("GuardrailFigures"))
export type GuardrailFigures = typeof GuardrailFigures.Type

/** The outcome of a check: `harmed` when some guardrail's interval lies wholly on its bad side. */
export const GuardrailCheck = Schema.Struct({
  outcome: Schema.Literal("ok", "harmed"),
  /** Every guardrail's figures, in the plan's order; those with `harmed: true` decided a harm. */
  guardrails: Schema.Array(GuardrailFigures),
  minimumUnits: Schema.Number
}).annotations(documentName("GuardrailCheck"))
export type GuardrailCheck = typeof GuardrailCheck.Type

const estimateOf = (e: Estimate | null) => (e === null ? null : { estimate: e.estimate, ci: e.ci === null ? null : ([e.ci[0], e.ci[1]] as const) })

/** One guardrail at level `alpha`. */
export const checkGuardrail = (input: GuardrailInput, alpha: number, plannedUnits: number): GuardrailFigures => {
  const notEnoughData = input.treatment.n < MIN_UNITS_PER_VARIATION || input.control.n < MIN_UNITS_PER_VARIATION
  const comparison = compare(input.control, input.treatment, { method: "sequential", alpha, plannedUnits, goal: input.goal })
  return {
    metricKey: input.key,
    goal: input.goal,
    treatment: { units: input.treatment.n, mean: mean(input.treatment) },
    control: { units: input.control.n, mean: mean(input.control) },
    absolute: estimateOf(comparison.absolute),
    relative: estimateOf(comparison.relative),
    pValue: comparison.pValue,
    alpha,
    notEnoughData,
    harmed: !notEnoughData && comparison.verdict === "worse"
  }
}

/** Every guardrail of a plan at one check; pure and total. */
export const checkGuardrails = (inputs: ReadonlyArray<GuardrailInput>, settings: GuardrailSettings): GuardrailCheck => {
  const perMetric = inputs.length > 0 ? settings.alpha / inputs.length : settings.alpha
  const guardrails = inputs.map((input) => checkGuardrail(input, perMetric, settings.plannedUnits))
  return { outcome: guardrails.some((g) => g.harmed) ? "harmed" : "ok", guardrails, minimumUnits: MIN_UNITS_PER_VARIATION }
}
