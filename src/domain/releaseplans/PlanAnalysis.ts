/**
 * Where a release plan's guardrail data lives: the experiments' per-unit rows, under an analysis
 * id of the plan's current run (`domain/experiments/MeasuredRule.ts` says how its units are
 * stored: by arm, the ramped variation against the rest of the rule).
 *
 * A run is the time from the plan's start, or from its last harm, on. After harm the plan is
 * stopped; when a person resumes it (after a fix, usually) the guardrails start again on fresh
 * units, so the data that showed the harm cannot stop the resumed plan at once by itself. A
 * manual pause keeps the run: pausing changes nothing about what the units did.
 */
import type { MeasuredRule } from "../experiments/MeasuredRule.js"
import type { ReleasePlan } from "./ReleasePlan.js"

/** The instant the plan's current run began: its start, or its last harm; null before it started. */
export const runStartedAt = (plan: Pick<ReleasePlan, "startedAt" | "harm">): string | null => plan.harm?.at ?? plan.startedAt

/** What the ids of all the plan's runs start with: a deleted plan's rows are found by it. */
export const planAnalysisPrefix = (plan: Pick<ReleasePlan, "id">): string => `plan:${plan.id}@`

/** The id the plan's current run writes its units under (unique: a plan id is an id). */
export const planAnalysisId = (plan: Pick<ReleasePlan, "id" | "startedAt" | "harm">): string => `${planAnalysisPrefix(plan)}${runStartedAt(plan) ?? "draft"}`

/**
 * A running plan as a measured rule: its guardrails over its rule's units from its run's start.
 * No CUPED covariate period (0 days): a guardrail decides on what units did after exposure only.
 */
export const planMeasure = (plan: ReleasePlan): MeasuredRule => ({
  id: planAnalysisId(plan),
  environment: plan.environment,
  flagKey: plan.flagKey,
  ruleId: plan.ruleId,
  startedAt: runStartedAt(plan),
  metrics: plan.guardrails,
  preWindowDays: 0,
  rampedVariationKey: plan.variationKey
})
