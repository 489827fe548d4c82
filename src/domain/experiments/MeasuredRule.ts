/**
 * A rule whose units are being measured: a running experiment's, or a running release plan's
 * (its guardrails, `Guardrail.ts`). What decides which exposures and metric events are kept
 * (`keptExposures`, `keptEvents`), which rules the server records exposures of, and which rules a
 * snapshot tells SDKs to send exposures for. Both write to the same per-unit rows, under `id`:
 * an experiment's id, or the analysis id of a plan's current run.
 *
 * An experiment stores each unit under the variation it was served. A plan stores it under its
 * arm (`armOf`): the ramped variation is the treatment and every other variation of the rule the
 * control, so a unit the rule moves between two control variations stays one control unit
 * (`unitExposureOf` in `Exposure.ts`).
 */
import type { Experiment } from "./Experiment.js"

export interface MeasuredRule {
  /** Where its units are written (the unit rows' experiment id). */
  readonly id: string
  readonly environment: string
  readonly flagKey: string
  readonly ruleId: string
  /** Exposures count from then on; null: not collecting. */
  readonly startedAt: string | null
  readonly metrics: ReadonlyArray<{ readonly key: string; readonly event: string; readonly windowHours?: number | undefined }>
  /** How long before a unit's first exposure its events count as the CUPED covariate. */
  readonly preWindowDays: number
  /** A release plan's ramped variation: its units are stored by arm. Absent for an experiment. */
  readonly rampedVariationKey?: string | undefined
}

/** A running experiment as a measured rule. */
export const measuredExperiment = (experiment: Experiment): MeasuredRule => ({
  id: experiment.id,
  environment: experiment.environment,
  flagKey: experiment.flagKey,
  ruleId: experiment.ruleId,
  startedAt: experiment.startedAt,
  metrics: experiment.metrics,
  preWindowDays: experiment.analysis.preWindowDays
})

/** The rules measured, each once (a plan and an experiment may measure the same rule). */
export const measuredRulesOf = (running: ReadonlyArray<MeasuredRule>): ReadonlyArray<{ readonly flagKey: string; readonly ruleId: string }> => {
  const seen = new Map<string, { flagKey: string; ruleId: string }>()
  for (const m of running) seen.set(`${m.flagKey}\u0000${m.ruleId}`, { flagKey: m.flagKey, ruleId: m.ruleId })
  return [...seen.values()]
}
