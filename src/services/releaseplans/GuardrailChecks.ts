/**
 * The experiment engine behind release plans' guardrails (the `Guardrails` hook the stepper calls
 * before each step and at each check): the plan's run's units from the experiments' per-unit rows
 * (`PlanAnalysis.ts`: treatment the ramped variation, control the rest of the rule), read as the
 * analysis's running totals (one read, whatever the number of units: a plan may be checked every
 * few seconds), then the pure check (`domain/experiments/Guardrail.ts`) at the plan's
 * alpha. What the stepper does on harm (pause or roll back, audit entry, webhook) is its own.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { metricArmsOf } from "../../domain/experiments/AnalysisTotals.js"
import { checkGuardrails, CONTROL_ARM, TREATMENT_ARM } from "../../domain/experiments/Guardrail.js"
import { ANALYSIS_DEFAULTS } from "../../domain/experiments/Experiment.js"
import type { MetricArmTotals } from "../../domain/experiments/UnitMetrics.js"
import { planAnalysisId } from "../../domain/releaseplans/PlanAnalysis.js"
import type { ReleasePlan } from "../../domain/releaseplans/ReleasePlan.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import { Guardrails } from "./Guardrails.js"

const EMPTY = { n: 0, sum: 0, sumSquares: 0 }

const armMoments = (arms: ReadonlyArray<MetricArmTotals>, arm: string) => {
  const found = arms.find((a) => a.variationKey === arm)
  return found === undefined ? EMPTY : { n: found.moments.n, sum: found.moments.sum, sumSquares: found.moments.sumSquares }
}

export const make = Effect.gen(function* () {
  const units = yield* ExperimentUnitRepository

  const check = Effect.fn("Guardrails.check")(function* (_projectId: string, plan: ReleasePlan) {
    if (plan.guardrails.length === 0) return checkGuardrails([], { alpha: plan.alpha, plannedUnits: ANALYSIS_DEFAULTS.plannedUnits })
    const totals = yield* units.analysisTotals(planAnalysisId(plan))
    const inputs = plan.guardrails.map((metric) => {
      const arms = metricArmsOf(totals, { key: metric.key, kind: metric.kind })
      return { key: metric.key, goal: metric.goal, treatment: armMoments(arms, TREATMENT_ARM), control: armMoments(arms, CONTROL_ARM) }
    })
    // The sequence is tightest where the experiments' default plans it; any value keeps the guarantee.
    return checkGuardrails(inputs, { alpha: plan.alpha, plannedUnits: ANALYSIS_DEFAULTS.plannedUnits })
  })

  return Guardrails.of({ check })
})

export const layer: Layer.Layer<Guardrails, never, ExperimentUnitRepository> = Layer.effect(Guardrails, make)
