/**
 * Release plans as the flag page shows them (components/ReleasePlans.tsx): the editor's templates,
 * a plan's timeline (steps done, the current one, the next and when, the rest and when they would
 * come if nothing stops the plan), and a guardrail's figures in words. Pure, so it is tested
 * without a browser.
 */
import type { MetricDraft } from "./experiments.js"
import { percentOf, weightOf } from "./format.js"
import type { Metric } from "./types.js"

/** A step as the API takes it: a weight in thousandths of a percent, then a hold in minutes. */
export interface PlanStep {
  readonly weight: number
  readonly holdMinutes: number
}

export interface PlanTemplate {
  readonly key: string
  readonly label: string
  readonly steps: ReadonlyArray<PlanStep>
}

const DAY_MINUTES = 24 * 60

/** Percentages spread over `totalMinutes`: every step holds an equal share. */
const spread = (percents: ReadonlyArray<number>, totalMinutes: number): ReadonlyArray<PlanStep> =>
  percents.map((p) => ({ weight: p * 1000, holdMinutes: totalMinutes / percents.length }))

/** The usual ramps: a day for a change seen quickly, a week for one whose harm shows slowly. */
export const PLAN_TEMPLATES: ReadonlyArray<PlanTemplate> = [
  { key: "day", label: "5%, 25%, 50%, 100% over a day", steps: spread([5, 25, 50, 100], DAY_MINUTES) },
  { key: "week", label: "1%, 10%, 50%, 100% over a week", steps: spread([1, 10, 50, 100], 7 * DAY_MINUTES) }
]

/** What the timeline needs of a plan (the API's ReleasePlan has these fields). */
export interface PlanProgress {
  readonly status: string
  readonly steps: ReadonlyArray<PlanStep>
  readonly currentStep: number | null
  readonly nextStepAt: string | null
}

export type StepState = "done" | "current" | "next" | "later"

export interface TimelineStep {
  readonly index: number
  readonly weight: number
  readonly holdMinutes: number
  readonly state: StepState
  /** When it is due (the next step) or would be if nothing stops the plan (later ones); else null. */
  readonly at: string | null
}

const MINUTE = 60_000

/**
 * Each step's place in the plan. Only a running plan has a next step with a time; a paused or
 * harmed one shows what is done and where it stands, its next step without a time.
 */
export const timeline = (plan: PlanProgress): ReadonlyArray<TimelineStep> => {
  const current = plan.currentStep
  const running = plan.status === "running" && plan.nextStepAt !== null
  let due = running ? Date.parse(plan.nextStepAt!) : null
  const next = current === null ? 0 : current + 1
  return plan.steps.map((step, index) => {
    const state: StepState = plan.status === "completed" || (current !== null && index < current) ? "done" : index === current ? "current" : index === next ? "next" : "later"
    let at: string | null = null
    if (due !== null && index >= next) {
      at = new Date(due).toISOString()
      due += Math.round(step.holdMinutes * MINUTE)
    }
    return { index, weight: step.weight, holdMinutes: step.holdMinutes, state, at }
  })
}

/** A hold in words: "3 s", "45 min", "6 h", "1.75 d". */
export const holdText = (minutes: number): string => {
  const round = (n: number) => String(Math.round(n * 100) / 100)
  if (minutes < 1) return `${round(minutes * 60)} s`
  if (minutes < 120) return `${round(minutes)} min`
  if (minutes < 2 * DAY_MINUTES) return `${round(minutes / 60)} h`
  return `${round(minutes / DAY_MINUTES)} d`
}

/** A step's weight as a percentage, "5%". */
export const weightText = (weight: number): string => `${percentOf(weight)}%`

/** The figures of one guardrail as the API gives them (GuardrailFigures). */
export interface GuardrailFigures {
  readonly metricKey: string
  readonly goal: "increase" | "decrease"
  readonly treatment: { readonly units: number; readonly mean: number }
  readonly control: { readonly units: number; readonly mean: number }
  readonly relative: { readonly estimate: number; readonly ci: readonly [number, number] | null } | null
  readonly absolute: { readonly estimate: number; readonly ci: readonly [number, number] | null } | null
  readonly notEnoughData: boolean
  readonly harmed: boolean
}

const signedPercent = (x: number) => `${x > 0 ? "+" : ""}${(Math.round(x * 1000) / 10).toFixed(1)}%`
const signed = (x: number) => `${x > 0 ? "+" : ""}${Number(x.toPrecision(3))}`

/** The change the treatment made, with its always-valid interval: "+12.0% (−3.1% to +27.4%)". */
export const changeText = (g: GuardrailFigures): string => {
  if (g.relative !== null) {
    const ci = g.relative.ci
    return ci === null ? signedPercent(g.relative.estimate) : `${signedPercent(g.relative.estimate)} (${signedPercent(ci[0])} to ${signedPercent(ci[1])})`
  }
  if (g.absolute !== null) {
    const ci = g.absolute.ci
    return ci === null ? signed(g.absolute.estimate) : `${signed(g.absolute.estimate)} (${signed(ci[0])} to ${signed(ci[1])})`
  }
  return "no data yet"
}

/** What the guardrail says now, in words. */
export const verdictText = (g: GuardrailFigures, minimumUnits: number): string =>
  g.harmed ? "harmed" : g.notEnoughData ? `waiting for ${minimumUnits} units in each arm` : "no harm shown"

/** A step as the editor types it: a percentage and minutes, as text. */
export interface StepDraft {
  readonly percent: string
  readonly holdMinutes: string
}

/** The plan editor's fields, as typed. */
export interface PlanDraft {
  readonly ruleId: string
  readonly variationKey: string
  readonly steps: ReadonlyArray<StepDraft>
  readonly guardrails: ReadonlyArray<MetricDraft>
  readonly onHarm: "pause" | "rollback"
  readonly alpha: string
}

/** The editor's steps for a template (or a saved plan's steps). */
export const stepDrafts = (steps: ReadonlyArray<PlanStep>): ReadonlyArray<StepDraft> =>
  steps.map((s) => ({ percent: percentOf(s.weight), holdMinutes: String(s.holdMinutes) }))

/** A new guardrail: an error event whose rate must not rise. */
export const NEW_GUARDRAIL: MetricDraft = { key: "", event: "", kind: "conversion", goal: "decrease", role: "guardrail", windowHours: "" }

/** A new plan on `ruleId` ramping `variationKey`: the day template, pausing on harm at alpha 0.05. */
export const newDraft = (ruleId: string, variationKey: string): PlanDraft => ({
  ruleId,
  variationKey,
  steps: stepDrafts(PLAN_TEMPLATES[0]!.steps),
  guardrails: [],
  onHarm: "pause",
  alpha: "0.05"
})

/** A saved draft in the editor. */
export const draftOfPlan = (plan: { readonly ruleId: string; readonly variationKey: string; readonly steps: ReadonlyArray<PlanStep>; readonly guardrails: ReadonlyArray<Metric>; readonly onHarm: "pause" | "rollback"; readonly alpha: number }): PlanDraft => ({
  ruleId: plan.ruleId,
  variationKey: plan.variationKey,
  steps: stepDrafts(plan.steps),
  guardrails: plan.guardrails.map((m) => ({ key: m.key, event: m.event, kind: m.kind, goal: m.goal, role: m.role, windowHours: m.windowHours === undefined ? "" : String(m.windowHours) })),
  onHarm: plan.onHarm,
  alpha: String(plan.alpha)
})

/** A typed number, or NaN (sent as null: the API refuses it with its own message next to the field). */
const numberOf = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text))

/** The body of a create (with `environment`) or of a draft's update (without), as typed. */
export const planBody = (d: PlanDraft) => ({
  ruleId: d.ruleId,
  variationKey: d.variationKey,
  steps: d.steps.map((s) => ({ weight: weightOf(s.percent), holdMinutes: numberOf(s.holdMinutes) })),
  guardrails: d.guardrails.map((m) => ({ key: m.key, event: m.event, kind: m.kind, goal: m.goal, role: m.role, ...(m.windowHours.trim() === "" ? {} : { windowHours: numberOf(m.windowHours) }) })),
  onHarm: d.onHarm,
  alpha: numberOf(d.alpha)
})

/** What each status means on the flag page. */
export const PLAN_STATUS_WORDS: { readonly [S in "draft" | "running" | "paused" | "harmed" | "completed" | "cancelled"]: string } = {
  draft: "draft: not started",
  running: "running",
  paused: "paused",
  harmed: "stopped by a guardrail",
  completed: "completed",
  cancelled: "cancelled"
}

/** Why a paused plan is paused, in words. */
export const pauseWords = (pausedBy: "manual" | "targetingChanged" | "stepFailed" | null): string =>
  pausedBy === "targetingChanged"
    ? "Paused because someone changed this flag's targeting here; resuming continues from the targeting as it is now."
    : pausedBy === "stepFailed"
      ? "Paused because a step could not be applied."
      : "Paused by hand: the rule keeps its weight until the plan resumes."

/** A rule a plan may ramp: its id and how it reads ("Rule 2 “Half”: on 50%, off 50%"). */
export interface PlanRule {
  readonly id: string
  readonly label: string
}

/** The rules of the targeting in `environment` in order, each with what it serves. */
export const planRules = (
  rules: ReadonlyArray<{ readonly id: string; readonly name?: string; readonly variationKey?: string; readonly rollout?: { readonly variations: ReadonlyArray<{ readonly variationKey: string; readonly weight: number }> } }>
): ReadonlyArray<PlanRule> =>
  rules.map((rule, i) => {
    const shares = rule.rollout !== undefined ? rule.rollout.variations.map((v) => `${v.variationKey} ${percentOf(v.weight)}%`).join(", ") : `${rule.variationKey ?? "?"} 100%`
    const name = rule.name === undefined || rule.name === "" ? "" : ` “${rule.name}”`
    return { id: rule.id, label: `Rule ${i + 1}${name}: ${shares}` }
  })
