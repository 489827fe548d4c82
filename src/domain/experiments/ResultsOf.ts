import type { AuditEntry } from "../audit/AuditEntry.js"
import type { Rule } from "../definitions/Targeting.js"
import type { Experiment } from "./Experiment.js"
import type { ExperimentResults } from "./Results.js"
import { analyseExperiment, MIN_UNITS_PER_VARIATION } from "./statistics/ExperimentAnalysis.js"
import type { MetricArm } from "./statistics/MetricAnalysis.js"

/** What the storage holds for an experiment's results, gathered by the use case. */
export interface ResultsData {
  /** Units exposed to exactly one variation, per variation. */
  readonly unitsPerVariation: ReadonlyArray<{ readonly variationKey: string; readonly units: number }>
  readonly unitsInSeveralVariations: number
  /** Per metric key, each variation's sums over those units. */
  readonly arms: ReadonlyMap<string, ReadonlyArray<MetricArm>>
  /** Audit entries of the flag while the experiment ran (any order). */
  readonly flagEntries: ReadonlyArray<AuditEntry>
}

/** The writes to a flag that change what its rule serves in `environment`: its targeting there, or its variations everywhere. */
const changesTargeting = (entry: AuditEntry, environment: string): boolean =>
  (entry.action === "targeting.updated" && entry.environment === environment) || (entry.action === "flag.updated" && entry.environment === undefined)

/**
 * The results of an experiment from its data: the variations are the rule's rollout slices (in
 * its order, with their weights) and any other variation units were seen in (weight 0, which the
 * sample-ratio check flags); without a rollout there is no split to check against.
 */
export const resultsOf = (experiment: Experiment, rule: Rule | undefined, data: ResultsData): ExperimentResults => {
  const seen = new Map(data.unitsPerVariation.map((v) => [v.variationKey, v.units]))
  const slices = rule?.rollout?.variations ?? []
  const variations = [
    ...slices.map((s) => ({ variationKey: s.variationKey, weight: s.weight, units: seen.get(s.variationKey) ?? 0 })),
    ...data.unitsPerVariation.filter((v) => !slices.some((s) => s.variationKey === v.variationKey)).map((v) => ({ ...v, weight: 0 }))
  ]
  const analysis = analyseExperiment(
    variations,
    experiment.controlVariationKey,
    experiment.metrics.map((m) => ({ key: m.key, goal: m.goal, arms: data.arms.get(m.key) ?? [] })),
    experiment.analysis
  )
  const totalUnits = variations.reduce((s, v) => s + v.units, 0)
  const totalWeight = variations.reduce((s, v) => s + v.weight, 0)
  const sampleRatio = slices.length === 0 ? null : {
    variations: variations.map((v) => ({ ...v, expectedUnits: totalWeight > 0 ? (totalUnits * v.weight) / totalWeight : 0 })),
    chiSquare: analysis.sampleRatio.chiSquare,
    pValue: analysis.sampleRatio.pValue,
    mismatch: analysis.sampleRatio.mismatch
  }
  const startedAt = experiment.startedAt ?? ""
  const stoppedAt = experiment.stoppedAt ?? undefined
  const targetingChanges = data.flagEntries
    .filter((e) => changesTargeting(e, experiment.environment) && e.at >= startedAt && (stoppedAt === undefined || e.at <= stoppedAt))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map((e) => ({ at: e.at, action: e.action, actor: e.actor }))
  return {
    experimentKey: experiment.key,
    status: experiment.status,
    controlVariationKey: experiment.controlVariationKey,
    method: experiment.analysis.method,
    alpha: experiment.analysis.alpha,
    trustworthy: !(sampleRatio?.mismatch ?? false),
    checks: {
      sampleRatio,
      unitsInSeveralVariations: data.unitsInSeveralVariations,
      targetingChanges,
      notEnoughData: analysis.notEnoughData,
      minimumUnits: MIN_UNITS_PER_VARIATION
    },
    metrics: experiment.metrics.map((m, i) => ({
      key: m.key,
      event: m.event,
      kind: m.kind,
      goal: m.goal,
      role: m.role,
      variations: analysis.metrics[i]!.variations,
      comparisons: analysis.metrics[i]!.comparisons
    }))
  }
}
