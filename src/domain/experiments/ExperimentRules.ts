/**
 * The pure rules of experiments: the record a create makes, what a patch may change, and whether
 * the flag's targeting gives the experiment a rule to measure (a rule with a percentage rollout).
 */
import type { Flag } from "../definitions/Flag.js"
import type { Rule } from "../definitions/Targeting.js"
import type { Problem } from "../Errors.js"
import {
  ANALYSIS_DEFAULTS,
  type Analysis,
  type AnalysisInput,
  type CreateExperimentInput,
  type Experiment,
  type PatchExperimentInput
} from "./Experiment.js"

/** The analysis with every field left out taken from `base`. */
export const analysisOf = (input: AnalysisInput | undefined, base: Analysis = ANALYSIS_DEFAULTS): Analysis => ({
  method: input?.method ?? base.method,
  alpha: input?.alpha ?? base.alpha,
  cuped: input?.cuped ?? base.cuped,
  preWindowDays: input?.preWindowDays ?? base.preWindowDays,
  plannedUnits: input?.plannedUnits ?? base.plannedUnits
})

/** The draft a create makes (`name` defaults to the key). */
export const draftOf = (input: CreateExperimentInput, id: string, now: string): Experiment => ({
  id,
  key: input.key,
  name: input.name ?? input.key,
  ...(input.hypothesis === undefined ? {} : { hypothesis: input.hypothesis }),
  flagKey: input.flagKey,
  environment: input.environment,
  ruleId: input.ruleId,
  controlVariationKey: input.controlVariationKey,
  metrics: input.metrics,
  analysis: analysisOf(input.analysis),
  status: "draft",
  startedAt: null,
  stoppedAt: null,
  createdAt: now,
  updatedAt: now
})

/** What decides which units an experiment measures: fixed once it has started. */
const FIXED_ONCE_STARTED = ["flagKey", "environment", "ruleId", "metrics"] as const

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * The fields the patch would change that a started experiment must keep (empty for a draft, and
 * for fields sent unchanged).
 */
export const fixedFieldsChanged = (experiment: Experiment, patch: PatchExperimentInput): ReadonlyArray<string> =>
  experiment.status === "draft"
    ? []
    : FIXED_ONCE_STARTED.filter((field) => patch[field] !== undefined && !same(patch[field], experiment[field]))

/** The experiment after the patch (the caller checked `fixedFieldsChanged` first). */
export const patched = (experiment: Experiment, patch: PatchExperimentInput, now: string): Experiment => {
  const { hypothesis: _hypothesis, ...rest } = experiment
  const hypothesis = patch.hypothesis === undefined ? experiment.hypothesis : patch.hypothesis ?? undefined
  return {
    ...rest,
    ...(hypothesis === undefined ? {} : { hypothesis }),
    name: patch.name ?? experiment.name,
    flagKey: patch.flagKey ?? experiment.flagKey,
    environment: patch.environment ?? experiment.environment,
    ruleId: patch.ruleId ?? experiment.ruleId,
    controlVariationKey: patch.controlVariationKey ?? experiment.controlVariationKey,
    metrics: patch.metrics ?? experiment.metrics,
    analysis: analysisOf(patch.analysis, experiment.analysis),
    updatedAt: now
  }
}

/** Metric keys named twice. */
export const metricProblems = (experiment: Pick<Experiment, "metrics">): ReadonlyArray<Problem> => {
  const seen = new Set<string>()
  return experiment.metrics.flatMap((metric, i) => {
    if (!seen.has(metric.key)) {
      seen.add(metric.key)
      return []
    }
    return [{ path: `metrics[${i}].key`, message: `'${metric.key}' is already the key of another metric` }]
  })
}

/** The rule the experiment measures in its environment's targeting, if the flag has it. */
export const ruleOf = (experiment: Pick<Experiment, "environment" | "ruleId">, flag: Flag): Rule | undefined =>
  flag.configs.find((config) => config.environmentKey === experiment.environment)?.rules.find((rule) => rule.id === experiment.ruleId)

/**
 * Why the flag's targeting gives the experiment nothing to measure: the rule is missing from the
 * environment's targeting, has no percentage rollout, or does not serve the control variation.
 */
export const targetProblems = (
  experiment: Pick<Experiment, "environment" | "ruleId" | "flagKey" | "controlVariationKey">,
  flag: Flag
): ReadonlyArray<Problem> => {
  const rule = ruleOf(experiment, flag)
  if (rule === undefined) {
    return [{ path: "ruleId", message: `flag '${experiment.flagKey}' has no rule '${experiment.ruleId}' in environment '${experiment.environment}'` }]
  }
  if (rule.rollout === undefined) {
    return [{ path: "ruleId", message: `rule '${experiment.ruleId}' serves one variation; an experiment needs a rule with a percentage rollout` }]
  }
  if (!flag.variations.some((variation) => variation.key === experiment.controlVariationKey)) {
    return [{ path: "controlVariationKey", message: `flag '${experiment.flagKey}' has no variation '${experiment.controlVariationKey}'` }]
  }
  const served = rule.rollout.variations.some((slice) => slice.variationKey === experiment.controlVariationKey && slice.weight > 0)
  return served ? [] : [{ path: "controlVariationKey", message: `rule '${experiment.ruleId}' does not serve '${experiment.controlVariationKey}' to any unit` }]
}

/** Whether `variationKey` (a decision's, a new control's, at `path`) names a variation of the flag. */
export const variationProblems = (path: string, variationKey: string, flag: Flag): ReadonlyArray<Problem> =>
  flag.variations.some((variation) => variation.key === variationKey)
    ? []
    : [{ path, message: `flag '${flag.key}' has no variation '${variationKey}'` }]
