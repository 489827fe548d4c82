/**
 * The experiments' pure helpers: which rules of a flag an experiment can measure (those that
 * split units by a percentage rollout), how a rule reads in a list, and the create form's body.
 * Pure, so they are tested without a browser; the API still judges every body.
 */
import { percentOf } from "./format.js"
import type { Analysis, CreateExperimentInput, Experiment, Flag, Metric, SavedRule } from "./types.js"

/** A rule an experiment may measure: its id, how it reads, and the variations its rollout serves. */
export interface RolloutRule {
  readonly id: string
  readonly label: string
  /** The variations with a share above 0, in the rollout's order: the control must be one of them. */
  readonly served: ReadonlyArray<string>
}

/** "Rule 2 “Half of everyone else”: on 50%, off 50%" (the place counts every rule of the targeting). */
export const ruleLabel = (rule: SavedRule, place: number): string => {
  const shares = (rule.rollout?.variations ?? []).map((v) => `${v.variationKey} ${percentOf(v.weight)}%`).join(", ")
  const name = rule.name === undefined || rule.name === "" ? "" : ` “${rule.name}”`
  return `Rule ${place}${name}: ${shares}`
}

/** The rules of `flag`'s targeting in `environment` that split units by a percentage rollout, in targeting order. */
export const rolloutRules = (flag: Flag | undefined, environment: string): ReadonlyArray<RolloutRule> => {
  const rules = flag?.configs.find((c) => c.environmentKey === environment)?.rules ?? []
  return rules.flatMap((rule, i) =>
    rule.rollout === undefined
      ? []
      : [{ id: rule.id, label: ruleLabel(rule, i + 1), served: rule.rollout.variations.filter((v) => v.weight > 0).map((v) => v.variationKey) }]
  )
}

/** The analysis a new experiment starts with: the API's own defaults, shown so people see what they get. */
export const DEFAULT_ANALYSIS: Analysis = { method: "sequential", alpha: 0.05, cuped: true, preWindowDays: 7, plannedUnits: 10_000 }

/** A metric as the form edits it: `windowHours` typed ("" means none). */
export interface MetricDraft {
  readonly key: string
  readonly event: string
  readonly kind: Metric["kind"]
  readonly goal: Metric["goal"]
  readonly role: Metric["role"]
  readonly windowHours: string
}

export const NEW_METRIC: MetricDraft = { key: "", event: "", kind: "conversion", goal: "increase", role: "primary", windowHours: "" }

/** The create form's fields, as typed. */
export interface ExperimentDraft {
  readonly key: string
  readonly name: string
  readonly hypothesis: string
  readonly flagKey: string
  readonly environment: string
  readonly ruleId: string
  readonly controlVariationKey: string
  readonly metrics: ReadonlyArray<MetricDraft>
  readonly method: Analysis["method"]
  readonly alpha: string
  readonly cuped: boolean
  readonly preWindowDays: string
  readonly plannedUnits: string
}

/**
 * A typed number, or null when it is not one: the API then refuses it with its own message
 * next to the field, rather than the page guessing a value.
 */
const numberOf = (text: string): number | null => {
  const n = Number(text)
  return text.trim() === "" || !Number.isFinite(n) ? null : n
}

const metricOf = (m: MetricDraft): Metric => {
  const window = m.windowHours.trim() === "" ? {} : { windowHours: numberOf(m.windowHours) as number }
  return { key: m.key, event: m.event, kind: m.kind, goal: m.goal, role: m.role, ...window }
}

/** `POST .../experiments`'s body for the form as typed (empty name and hypothesis left out). */
export const createBody = (d: ExperimentDraft): CreateExperimentInput => ({
  key: d.key,
  ...(d.name.trim() === "" ? {} : { name: d.name }),
  ...(d.hypothesis.trim() === "" ? {} : { hypothesis: d.hypothesis }),
  flagKey: d.flagKey,
  environment: d.environment,
  ruleId: d.ruleId,
  controlVariationKey: d.controlVariationKey,
  metrics: d.metrics.map(metricOf),
  analysis: {
    method: d.method,
    alpha: numberOf(d.alpha) as number,
    cuped: d.cuped,
    preWindowDays: numberOf(d.preWindowDays) as number,
    plannedUnits: numberOf(d.plannedUnits) as number
  }
})

/** What each status means to the person reading the list. */
export const STATUS_WORDS: { readonly [S in Experiment["status"]]: string } = {
  draft: "draft",
  running: "running",
  stopped: "stopped"
}

/** The metric's line: "purchase, conversion, to increase (primary)". */
export const metricWords = (m: Metric): string =>
  `${m.event}, ${m.kind}${m.windowHours === undefined ? "" : ` within ${m.windowHours} h`}, to ${m.goal} (${m.role})`
