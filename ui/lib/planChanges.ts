/**
 * A change request's release plans as the Change requests page shows them: what applying does to
 * each (start, or resume after harm or a person's change), and the plan as it was pinned when the
 * request was made (what the approvers approve: the ramped variation, each step and its hold, the
 * guardrails, what happens on harm). Whether a plan moved on since (edited, deleted) is read from
 * the plans as they are now. Pure, so it is tested without a browser.
 */
import { holdText, weightText } from "./releasePlans.js"
import type { ChangeRequest } from "./types.js"

export type PlanChange = ChangeRequest["releasePlans"][number]

export interface PlanChangeView {
  readonly heading: string
  readonly ramp: string
  readonly steps: ReadonlyArray<string>
  readonly guardrails: string
  readonly onHarm: string
  /** For a plan a guardrail stopped: what the harm did, else null. */
  readonly harm: string | null
}

/** One plan of a request in words. */
export const planChangeView = (c: PlanChange): PlanChangeView => {
  const { plan } = c
  return {
    heading: `${c.action === "start" ? "Start" : "Resume"} release plan ${c.planId}`,
    ramp: `Ramps “${plan.variationKey}” up on rule ${plan.ruleId}, from plan version ${c.baseVersion}`,
    steps: plan.steps.map((step, i) => `Step ${i + 1}: ${weightText(step.weight)} for ${holdText(step.holdMinutes)}`),
    guardrails:
      plan.guardrails.length === 0
        ? "No guardrails: the plan advances on time alone."
        : `Guardrails: ${plan.guardrails.map((m) => m.key).join(", ")} (alpha ${plan.alpha}).`,
    onHarm: plan.onHarm === "rollback" ? "On harm: roll back to 0% at once." : "On harm: pause at the current weight.",
    harm:
      plan.harm === null
        ? null
        : `A guardrail found harm at ${weightText(plan.harm.weight)}; the plan ${plan.harm.action === "rolledBack" ? "rolled back to 0%" : "paused there"}.`
  }
}

/** The plans of live requests whose version is no longer the pinned one (edited or deleted since): their ids. */
export const plansMovedOn = (plans: ReadonlyArray<PlanChange>, versions: ReadonlyMap<string, number>): ReadonlyArray<string> =>
  plans.filter((c) => versions.get(c.planId) !== c.baseVersion).map((c) => c.planId)

/** The flags whose plans `requests` name: the page reads their plans to see which moved on. */
export const planFlags = (requests: ReadonlyArray<ChangeRequest>): ReadonlyArray<string> => [...new Set(requests.flatMap((r) => r.releasePlans.map((c) => c.flagKey)))]

/** The body that brings a request up to date: the same proposal, pinned on the flags and plans as they are now. */
export const upToDateBody = (r: ChangeRequest) => ({
  ...(r.changes.length === 0 ? {} : { changes: r.changes.map((c) => ({ flagKey: c.flagKey, targeting: c.after })) }),
  ...(r.releasePlans.length === 0 ? {} : { releasePlans: r.releasePlans.map((c) => ({ flagKey: c.flagKey, planId: c.planId, action: c.action })) })
})
