import * as Schema from "effect/Schema"
import { PlanStarter } from "../audit/Actor.js"
import { documentName } from "../DocumentName.js"
import { Key, Timestamp } from "../definitions/Ids.js"
import { WeightedVariation } from "../definitions/Targeting.js"
import { Text } from "../definitions/Text.js"
import { Metric } from "../experiments/Experiment.js"
import { GuardrailCheck } from "../experiments/Guardrail.js"

/**
 * A release plan (docs/guide/release-plans.md): ramps `variationKey` up in one rule of one flag's
 * environment, step by step, and stops when a guardrail metric is harmed.
 *
 * Each step sets the rule's rollout so `variationKey` has the step's `weight` (thousandths of a
 * percent) and the rule's other variations share the rest in their proportions at the start
 * (`baseline`); the plan then holds that weight `holdMinutes` before the next step. The plan's
 * status and its transitions are in `Transitions.ts`, the step itself in `ApplyStep.ts`, what a
 * plan must satisfy in `PlanRules.ts`.
 */

/**
 * - `draft`: made, not started; everything may change.
 * - `running`: the stepper applies its steps when due and checks its guardrails.
 * - `paused`: stopped by a person (`pause`), or by a person's direct change to the rule's targeting
 *   (`pausedBy: "targetingChanged"`), or because a step could not be applied (`"stepFailed"`); the
 *   weight stays. `resume` continues from the current step.
 * - `harmed`: a guardrail showed harm; the plan paused there or rolled back to weight 0 (`harm`
 *   says which and the figures that decided it). `resume` continues (after a rollback: from the
 *   first step again).
 * - `completed`: the last step's hold passed.
 * - `cancelled`: stopped for good; the rule keeps the weight it had.
 */
export const ReleasePlanStatus = Schema.Literal("draft", "running", "paused", "harmed", "completed", "cancelled")
export type ReleasePlanStatus = typeof ReleasePlanStatus.Type

/** Why a plan is `paused`. */
export const PauseReason = Schema.Literal("manual", "targetingChanged", "stepFailed")
export type PauseReason = typeof PauseReason.Type

/** What a plan does when a guardrail shows harm. */
export const OnHarm = Schema.Literal("pause", "rollback")
export type OnHarm = typeof OnHarm.Type

/** The most steps a plan may have. */
export const MAX_STEPS = 20
/** The most guardrail metrics a plan may have. */
export const MAX_GUARDRAILS = 10
/** The shortest hold: three seconds, so tests need not wait. */
export const MIN_HOLD_MINUTES = 0.05
/** The longest hold: thirty days. */
export const MAX_HOLD_MINUTES = 30 * 24 * 60
/** The alpha of a plan's guardrails when none is given. */
export const DEFAULT_ALPHA = 0.05

/** One step: the weight `variationKey` gets, then how long the plan holds it. */
export const Step = Schema.Struct({
  weight: Schema.Number,
  holdMinutes: Schema.Number
}).annotations(documentName("ReleasePlanStep"))
export type Step = typeof Step.Type

/**
 * Harm found by a guardrail check (domain/experiments/Guardrail.ts): when, what the plan did, the
 * weight it was at, and the check itself: every guardrail's figures, those that decided it marked.
 */
export const Harm = Schema.Struct({
  at: Timestamp,
  action: Schema.Literal("paused", "rolledBack"),
  /** The weight the plan was at when harm was found. */
  weight: Schema.Number,
  check: GuardrailCheck
}).annotations(documentName("ReleasePlanHarm"))
export type Harm = typeof Harm.Type

/** The person or key that started the plan: the actor its steps are recorded under. */
export const StartedBy = PlanStarter.annotations(documentName("ReleasePlanStarter"))

/** A release plan as the API shows it. */
export const ReleasePlan = Schema.Struct({
  id: Schema.String,
  flagKey: Key,
  environment: Key,
  ruleId: Schema.String,
  variationKey: Schema.String,
  steps: Schema.Array(Step),
  guardrails: Schema.Array(Metric),
  onHarm: OnHarm,
  /** The guardrails' alpha: the chance, however often checked, of stopping a plan that does no harm. */
  alpha: Schema.Number,
  status: ReleasePlanStatus,
  /** Index of the step whose weight the rule has (null before the first step or after a rollback). */
  currentStep: Schema.NullOr(Schema.Number),
  /** When the next step (or, after the last, completion) is due while running; null otherwise. */
  nextStepAt: Schema.NullOr(Timestamp),
  pausedBy: Schema.NullOr(PauseReason),
  /** Why the last step could not be applied (`pausedBy: "stepFailed"`), else null. */
  failure: Schema.NullOr(Schema.String),
  harm: Schema.NullOr(Harm),
  /** The rule's other variations and their weights when the plan started: the proportions they keep. */
  baseline: Schema.NullOr(Schema.Array(WeightedVariation)),
  startedBy: Schema.NullOr(StartedBy),
  startedAt: Schema.NullOr(Timestamp),
  completedAt: Schema.NullOr(Timestamp),
  /** Bumped by every change of the plan; `If-Match` and the stepper's compare-and-set use it. */
  version: Schema.Number,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations(documentName("ReleasePlan"))
export type ReleasePlan = typeof ReleasePlan.Type

const Steps = Schema.Array(Step)
const Guardrails = Schema.Array(Metric)

/** Body of `POST /v1/projects/{p}/flags/{k}/release-plans`; checked further by `PlanRules.ts`. */
export const CreateReleasePlanInput = Schema.Struct({
  environment: Key,
  ruleId: Text,
  variationKey: Key,
  steps: Steps,
  guardrails: Schema.optional(Guardrails),
  onHarm: Schema.optional(OnHarm),
  alpha: Schema.optional(Schema.Number)
}).annotations(documentName("CreateReleasePlanInput"))
export type CreateReleasePlanInput = typeof CreateReleasePlanInput.Type

/** Body of `PATCH .../release-plans/{id}`: send only what changes; only a draft may change. */
export const UpdateReleasePlanInput = Schema.Struct({
  ruleId: Schema.optional(Text),
  variationKey: Schema.optional(Key),
  steps: Schema.optional(Steps),
  guardrails: Schema.optional(Guardrails),
  onHarm: Schema.optional(OnHarm),
  alpha: Schema.optional(Schema.Number)
}).annotations(documentName("UpdateReleasePlanInput"))
export type UpdateReleasePlanInput = typeof UpdateReleasePlanInput.Type

/** Body of `POST .../release-plans/{id}/resume` (it may be empty). */
export const ResumeReleasePlanInput = Schema.Struct({
  /**
   * Required (true) when a person's direct change to the rule's targeting paused the plan: the
   * plan then continues from the targeting as it is now.
   */
  confirm: Schema.optional(Schema.Boolean)
}).annotations(documentName("ResumeReleasePlanInput"))
export type ResumeReleasePlanInput = typeof ResumeReleasePlanInput.Type

/** A plan whose stepper acts on it: the states in which steps and checks happen. */
export const isActive = (plan: Pick<ReleasePlan, "status">): boolean => plan.status === "running"

/** The weight the plan has applied (0 before its first step and after a rollback). */
export const currentWeight = (plan: Pick<ReleasePlan, "currentStep" | "steps">): number =>
  plan.currentStep === null ? 0 : plan.steps[plan.currentStep]?.weight ?? 0
