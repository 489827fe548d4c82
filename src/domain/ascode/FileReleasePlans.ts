/**
 * Release plans in the project file (docs/guide/flags-as-code.md, "Release plans"): a flag's
 * `releasePlans` list holds at most one plan per environment, as the body of its create. The file
 * holds the plan's definition only; what happens to it (start, steps, pause, harm) is the
 * server's, and apply never writes it.
 *
 * Which stored plan a file's plan speaks of (`livePlan`): the one that holds the flag's
 * environment (running, paused or harmed; at most one does), else the newest draft. Completed and
 * cancelled plans are history: not exported, never changed; a file naming the newest of them
 * exactly changes nothing (so the file that made a plan, applied again after the plan ran, does not
 * make it again). What the file's plan then asks (`planFor`):
 *
 * - nothing, when the live plan (or, with none, the newest finished one) is defined as the file says
 *   (a draft left so is still checked against the flag the file makes: ValidateFile.ts);
 * - a new draft, when there is no live plan;
 * - an update of the draft, when the live plan is a draft defined otherwise;
 * - refused, when the live plan has started and the file defines it otherwise: a started plan's
 *   definition does not change (Transitions.ts), and apply starts, pauses and cancels nothing.
 */
import type { RuleInput } from "../definitions/Targeting.js"
import { type Metric } from "../experiments/Experiment.js"
import { slicesOf } from "../releaseplans/PlanRules.js"
import { draftOf } from "../releaseplans/Drafts.js"
import type { ReleasePlan } from "../releaseplans/ReleasePlan.js"
import * as T from "../releaseplans/Transitions.js"
import type { FileReleasePlan, FileTargeting } from "./ProjectFile.js"

/** A plan's definition with every field, in the file's fixed order (what export writes, what a plan compares). */
export type DefinedPlan = Required<FileReleasePlan>

type Definition = Pick<ReleasePlan, "environment" | "ruleId" | "variationKey" | "steps" | "guardrails" | "onHarm" | "alpha">

const fileMetric = (m: Metric): Metric => ({
  key: m.key,
  event: m.event,
  kind: m.kind,
  goal: m.goal,
  role: m.role,
  ...(m.windowHours === undefined ? {} : { windowHours: m.windowHours })
})

/** A stored plan's definition in the file's shape. */
export const filePlan = (plan: Definition): DefinedPlan => ({
  environment: plan.environment,
  ruleId: plan.ruleId,
  variationKey: plan.variationKey,
  steps: plan.steps.map((s) => ({ weight: s.weight, holdMinutes: s.holdMinutes })),
  guardrails: plan.guardrails.map(fileMetric),
  onHarm: plan.onHarm,
  alpha: plan.alpha
})

/** The file's plan as its draft would be defined: the defaults are those of a create (Drafts.ts). */
export const desiredPlan = (item: FileReleasePlan, flagKey: string): DefinedPlan => filePlan(draftOf(item, flagKey, "", ""))

/** `plans` are in creation order (ProjectState.releasePlans), so the newest is the last. */
const newestFirst = (plans: ReadonlyArray<ReleasePlan>): Array<ReleasePlan> => [...plans].reverse()

const ofEnvironment = (plans: ReadonlyArray<ReleasePlan>, flagKey: string, environment: string) =>
  newestFirst(plans.filter((p) => p.flagKey === flagKey && p.environment === environment))

/** The plan of the flag's environment the file speaks of: the one holding it, else the newest draft. */
export const livePlan = (plans: ReadonlyArray<ReleasePlan>, flagKey: string, environment: string): ReleasePlan | undefined => {
  const mine = ofEnvironment(plans, flagKey, environment)
  return mine.find((p) => T.HOLDING.includes(p.status)) ?? mine.find((p) => p.status === "draft")
}

/** Whether apply may redefine the plan: the statuses an update is allowed in (Transitions.ts). */
const redefinable = (plan: ReleasePlan): boolean => T.refusal("update", plan) === null

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** What the file's plan of `flagKey` asks of the stored plans (see the top of this file). */
export type PlanFor =
  | { readonly kind: "unchanged"; readonly stored: ReleasePlan }
  | { readonly kind: "create"; readonly after: DefinedPlan }
  | { readonly kind: "update"; readonly stored: ReleasePlan; readonly before: DefinedPlan; readonly after: DefinedPlan }
  | { readonly kind: "refused"; readonly stored: ReleasePlan; readonly message: string }

export const planFor = (item: FileReleasePlan, flagKey: string, plans: ReadonlyArray<ReleasePlan>): PlanFor => {
  const after = desiredPlan(item, flagKey)
  const live = livePlan(plans, flagKey, item.environment)
  if (live === undefined) {
    const finished = ofEnvironment(plans, flagKey, item.environment).find((p) => p.status === "completed" || p.status === "cancelled")
    return finished !== undefined && same(filePlan(finished), after) ? { kind: "unchanged", stored: finished } : { kind: "create", after }
  }
  const before = filePlan(live)
  if (same(before, after)) return { kind: "unchanged", stored: live }
  if (redefinable(live)) return { kind: "update", stored: live, before, after }
  return {
    kind: "refused",
    stored: live,
    message: `${T.refusal("update", live)}: apply does not change a started plan; cancel it first (flagport release-plans cancel ${flagKey} ${live.id}) ` +
      "to make the file's plan a new draft, or write the plan as it is (flagport export)"
  }
}

/** The flag's live plans in `environmentOrder`, as export writes them. */
export const filePlansOf = (plans: ReadonlyArray<ReleasePlan>, flagKey: string, environmentOrder: ReadonlyArray<string>): Array<DefinedPlan> =>
  environmentOrder.flatMap((environment) => {
    const live = livePlan(plans, flagKey, environment)
    return live === undefined ? [] : [filePlan(live)]
  })

/** With prune: the live drafts of a flag the file keeps whose environment its `releasePlans` leave out (started plans are never pruned). */
export const prunedDrafts = (plans: ReadonlyArray<ReleasePlan>, flagKey: string, listed: ReadonlySet<string>): Array<ReleasePlan> => {
  const environments = [...new Set(plans.filter((p) => p.flagKey === flagKey).map((p) => p.environment))]
  return environments.flatMap((environment) => {
    const live = livePlan(plans, flagKey, environment)
    return live !== undefined && !listed.has(environment) && live.status === "draft" ? [live] : []
  })
}

/** The variations a rule serves (weight above 0), with the plan's own: what must stay for the plan to keep the rule's weights. */
const servedWith = (rule: RuleInput, variationKey: string): string =>
  [...new Set([...slicesOf(rule).filter((s) => s.weight > 0).map((s) => s.variationKey), variationKey])].sort().join("\u0000")

/**
 * While a plan holds a flag's environment (running, paused or harmed), what its rule serves is the
 * plan's: each step sets the rule's rollout, a harm may set it back to 0. So the file's targeting
 * there keeps its say over that rule (its conditions, name and place) but not over what it serves,
 * as long as it serves the same variations (the plan's own aside): the stored serving stays, and a
 * file written before the plan moved plans no change for it. A file that makes the rule serve other
 * variations, or leaves the rule out, is written as it says (a person's write then pauses the plan).
 */
export const servingKeptForPlans = (after: FileTargeting, before: FileTargeting, flagKey: string, plans: ReadonlyArray<ReleasePlan>): FileTargeting => {
  const holding = livePlan(plans, flagKey, after.key)
  if (holding === undefined || !T.HOLDING.includes(holding.status)) return after
  const stored = (before.rules ?? []).find((rule) => rule.id === holding.ruleId)
  if (stored === undefined) return after
  return {
    ...after,
    rules: (after.rules ?? []).map((rule): RuleInput =>
      rule.id !== holding.ruleId || servedWith(rule, holding.variationKey) !== servedWith(stored, holding.variationKey)
        ? rule
        : {
          ...(rule.id === undefined ? {} : { id: rule.id }),
          ...(rule.name === undefined ? {} : { name: rule.name }),
          conditions: rule.conditions,
          ...(stored.variationKey === undefined ? {} : { variationKey: stored.variationKey }),
          ...(stored.rollout === undefined ? {} : { rollout: stored.rollout })
        })
  }
}
