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
import { type Metric } from "../experiments/Experiment.js"
import { draftOf } from "../releaseplans/Drafts.js"
import type { ReleasePlan } from "../releaseplans/ReleasePlan.js"
import * as T from "../releaseplans/Transitions.js"
import type { FileReleasePlan } from "./ProjectFile.js"

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
