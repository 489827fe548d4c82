/**
 * A release plan's start (or resume) carried by a change request (docs/guide/change-requests.md,
 * "Release plans"). In a protected environment a plan's steps change targeting, so a person's start
 * is approved once, as a whole: the request names the plan and the action, and pins the plan as it
 * was when the request was opened or last updated (`baseVersion`, `plan`), exactly as a targeting
 * change pins its flag's version. The apply refuses (409, as for a flag that moved on) when the
 * plan changed since; its steps then apply without further approvals (they are the plan's own
 * writes, never a person's hand: ProtectionRule.ts).
 *
 * `resume` is for a plan whose continuing is a new decision about production: one stopped by harm
 * its guardrails found, or paused by a person's change to its rule's targeting (Transitions.ts,
 * `resumeNeedsApproval`); the request's approval is then the confirmation such a resume needs.
 */
import * as Schema from "effect/Schema"
import { Key } from "../definitions/Ids.js"
import { Text } from "../definitions/Text.js"
import { documentName } from "../DocumentName.js"
import { ReleasePlan } from "../releaseplans/ReleasePlan.js"

/** What the request does to the plan when applied. */
export const PlanChangeAction = Schema.Literal("start", "resume")
export type PlanChangeAction = typeof PlanChangeAction.Type

/** At most this many plans in one change request (one per flag can run in an environment anyway). */
export const MAX_PLAN_CHANGES = 10

/** One plan as a request's input names it. */
export const PlanChangeInput = Schema.Struct({
  flagKey: Key,
  planId: Text.pipe(Schema.minLength(1), Schema.maxLength(200)),
  action: PlanChangeAction
}).annotations(documentName("ReleasePlanChangeInput"))
export type PlanChangeInput = typeof PlanChangeInput.Type

/** The plans of a request's input: none to `MAX_PLAN_CHANGES`. */
export const PlanChangeInputs = Schema.Array(PlanChangeInput).pipe(
  Schema.maxItems(MAX_PLAN_CHANGES, { message: () => `must name at most ${MAX_PLAN_CHANGES} release plans` })
)

/** One plan as the request keeps it: the action, and the plan as it was approved (its version pinned). */
export const PlanChange = Schema.Struct({
  flagKey: Schema.String,
  planId: Schema.String,
  action: PlanChangeAction,
  /** The plan's `version` when the request was opened or last updated: the apply refuses another. */
  baseVersion: Schema.Number,
  /** The plan then: its rule, variation, steps, guardrails and what it does on harm, as the approvers saw it. */
  plan: ReleasePlan.annotations({
    ...documentName("PinnedReleasePlan"),
    description: "The release plan as it was when the request was opened or its plans last updated: what the approvers approve."
  })
}).annotations(documentName("ReleasePlanChange"))
export type PlanChange = typeof PlanChange.Type

/**
 * The flags `plans` name a second time, as problems at their paths: one plan at a time ramps a
 * flag in an environment, so a request starts (or resumes) at most one per flag.
 */
export const duplicatePlans = (plans: ReadonlyArray<PlanChangeInput>) => {
  const seen = new Set<string>()
  return plans.flatMap((plan, index) => {
    if (!seen.has(plan.flagKey)) {
      seen.add(plan.flagKey)
      return []
    }
    return [{ path: `releasePlans[${index}].flagKey`, message: `names flag '${plan.flagKey}' a second time: one release plan at a time ramps a flag in an environment` }]
  })
}
