/**
 * A release plan's life: which action each status allows (one table), and the plan each
 * transition makes. Pure; the use cases and the stepper write what these return.
 *
 *   draft ──start──▶ running ──(last hold passed)──▶ completed
 *                     │  ▲
 *          pause,     │  │ resume (a person's change: only with confirm)
 *          a person's │  │
 *          change,    ▼  │
 *          a failed   paused
 *          step
 *                   running ──(guardrail harm)──▶ harmed ──resume──▶ running
 *   draft, running, paused, harmed ──cancel──▶ cancelled
 */
import type { Actor, PlanStarter } from "../audit/Actor.js"
import { formatTimestamp } from "../definitions/Ids.js"
import type { WeightedVariation } from "../definitions/Targeting.js"
import type { Harm, PauseReason, ReleasePlan, ReleasePlanStatus } from "./ReleasePlan.js"

/** What people (and keys) may ask of a plan. */
export type PlanAction = "update" | "delete" | "start" | "pause" | "resume" | "cancel"

/** The statuses in which each action is allowed; anything else is a 409. */
export const ALLOWED_FROM: Readonly<Record<PlanAction, ReadonlyArray<ReleasePlanStatus>>> = {
  update: ["draft"],
  delete: ["draft", "completed", "cancelled"],
  start: ["draft"],
  pause: ["running"],
  resume: ["paused", "harmed"],
  cancel: ["draft", "running", "paused", "harmed"]
}

/** The statuses in which a plan holds its flag's environment: at most one plan at a time may. */
export const HOLDING: ReadonlyArray<ReleasePlanStatus> = ["running", "paused", "harmed"]

/** Why `action` is refused for the plan in its status, or null when it is allowed. */
export const refusal = (action: PlanAction, plan: Pick<ReleasePlan, "status" | "id">): string | null =>
  ALLOWED_FROM[action].includes(plan.status)
    ? null
    : `Release plan '${plan.id}' is ${plan.status}; ${action} is allowed only when it is ${ALLOWED_FROM[action].join(" or ")}`

/** The message of a resume refused because a person changed the rule's targeting meanwhile. */
export const confirmNeeded = (plan: Pick<ReleasePlan, "id" | "flagKey" | "environment">): string =>
  `Release plan '${plan.id}' was paused because the targeting of flag '${plan.flagKey}' in '${plan.environment}' was changed directly; resume with { "confirm": true } to let its next step set the rule's rollout again`

/**
 * Whether a person's resume of the plan is a new decision about what production serves, so that in
 * a protected environment it needs an approved change request as the start did: the plan stopped
 * on harm its guardrails found (resuming exposes units to the harm again), or was paused by a
 * person's change to its rule's targeting (its next step would overwrite that change). A plan a
 * person paused by hand, or whose step failed, resumes what was approved: directly.
 */
export const resumeNeedsApproval = (plan: Pick<ReleasePlan, "status" | "pausedBy">): boolean =>
  plan.status === "harmed" || plan.pausedBy === "targetingChanged"

const minutes = (m: number) => Math.round(m * 60_000)

const touched = (plan: ReleasePlan, nowMillis: number): ReleasePlan => ({ ...plan, version: plan.version + 1, updatedAt: formatTimestamp(nowMillis) })

/** Who answers for a plan started by `actor` (a plan's own actor passes on who started it). */
export const starterOf = (actor: Actor): PlanStarter => {
  if (actor.type === "releasePlan") return actor.startedBy ?? { type: "cli" }
  const { id: _id, startedBy: _startedBy, type, ...named } = actor
  return { type, ...named }
}

/** The actor of a plan's steps: the plan, and who started it. */
export const stepActor = (plan: Pick<ReleasePlan, "id" | "startedBy">): Actor => ({
  type: "releasePlan",
  id: plan.id,
  ...(plan.startedBy === null ? {} : { startedBy: plan.startedBy })
})

/** Started: running, its first step due at once. */
export const started = (plan: ReleasePlan, baseline: ReadonlyArray<WeightedVariation>, startedBy: PlanStarter, nowMillis: number): ReleasePlan => ({
  ...touched(plan, nowMillis),
  status: "running",
  currentStep: null,
  nextStepAt: formatTimestamp(nowMillis),
  pausedBy: null,
  failure: null,
  harm: null,
  baseline,
  startedBy,
  startedAt: formatTimestamp(nowMillis)
})

/** The index of the step the stepper applies next, or null when the last one has been applied. */
export const nextStepIndex = (plan: Pick<ReleasePlan, "currentStep" | "steps">): number | null => {
  const next = plan.currentStep === null ? 0 : plan.currentStep + 1
  return next < plan.steps.length ? next : null
}

/** Step `index` applied: its hold starts now. */
export const stepped = (plan: ReleasePlan, index: number, nowMillis: number): ReleasePlan => ({
  ...touched(plan, nowMillis),
  currentStep: index,
  nextStepAt: formatTimestamp(nowMillis + minutes(plan.steps[index]!.holdMinutes))
})

/** The last step's hold passed. */
export const completed = (plan: ReleasePlan, nowMillis: number): ReleasePlan => ({
  ...touched(plan, nowMillis),
  status: "completed",
  nextStepAt: null,
  completedAt: formatTimestamp(nowMillis)
})

/** Paused at its current weight, by a person, by a person's change, or by a step that failed. */
export const paused = (plan: ReleasePlan, reason: PauseReason, nowMillis: number, failure: string | null = null): ReleasePlan => ({
  ...touched(plan, nowMillis),
  status: "paused",
  nextStepAt: null,
  pausedBy: reason,
  failure
})

/** A guardrail showed harm: paused there, or rolled back to weight 0 (no current step). */
export const harmed = (plan: ReleasePlan, harm: Harm, nowMillis: number): ReleasePlan => ({
  ...touched(plan, nowMillis),
  status: "harmed",
  nextStepAt: null,
  ...(harm.action === "rolledBack" ? { currentStep: null } : {}),
  harm
})

/**
 * Running again. After a rollback it starts from the first step (due at once); after a failed step
 * that step is tried again at once; otherwise the current weight is held a full hold again first.
 */
export const resumed = (plan: ReleasePlan, nowMillis: number): ReleasePlan => {
  const holdAgain = plan.currentStep !== null && plan.pausedBy !== "stepFailed"
  return {
    ...touched(plan, nowMillis),
    status: "running",
    pausedBy: null,
    failure: null,
    nextStepAt: formatTimestamp(holdAgain ? nowMillis + minutes(plan.steps[plan.currentStep!]!.holdMinutes) : nowMillis)
  }
}

/** Stopped for good; the rule keeps its weight. */
export const cancelled = (plan: ReleasePlan, nowMillis: number): ReleasePlan => ({
  ...touched(plan, nowMillis),
  status: "cancelled",
  nextStepAt: null
})

/**
 * When the stepper must next look at the plan: its next step, or sooner its next guardrail check
 * (`checkEveryMillis` from now) when it has guardrails; never unless it is running.
 */
export const dueAtOf = (plan: Pick<ReleasePlan, "status" | "nextStepAt" | "guardrails">, nowMillis: number, checkEveryMillis: number): string | null => {
  if (plan.status !== "running" || plan.nextStepAt === null) return null
  if (plan.guardrails.length === 0) return plan.nextStepAt
  return formatTimestamp(Math.min(Date.parse(plan.nextStepAt), nowMillis + checkEveryMillis))
}
