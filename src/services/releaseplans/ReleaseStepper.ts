/**
 * Advances running release plans (docs/guide/release-plans.md), in the scheduler's rounds (Scheduler.ts)
 * and under the same kind of lease as schedules.
 *
 * One round: claim the plans due (a step or a guardrail check), then for each, in ONE transaction:
 *  1. ask the guardrails (the optional `Guardrails` hook): on harm, pause there or roll back to
 *     weight 0 (the rollback is a targeting write);
 *  2. otherwise, when the next step is due, apply it: `Flags.replaceTargeting` (the targeting PUT's
 *     use case, so validation, webhook event, change feed and audit entry are the PUT's) with the
 *     rule's rollout from `applyStep`, as the actor `{ type: "releasePlan", id, startedBy }`; after
 *     the last step's hold, complete the plan;
 *  3. store the plan by compare-and-set on the version it was claimed at, while the lease is held,
 *     with the plan's own audit entry and webhook event, the plan their actor too; when it stops
 *     running (harm, completion, a failed step) the change of its measuring is announced first
 *     (PlanWrite.ts, `measuringChanged`).
 * If the compare-and-set fails (a person paused it, another stepper whose lease had lapsed got
 * there first), the whole transaction rolls back, the targeting write included. A process that
 * dies mid-step commits nothing, and the plan is claimed again when its lease expires. So each
 * step is applied exactly once, none skipped (the next index is always the stored one plus one).
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CurrentCaller, operator } from "../../domain/auth/Caller.js"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import type { TargetingInput } from "../../domain/definitions/Targeting.js"
import { applyStep } from "../../domain/releaseplans/ApplyStep.js"
import { currentWeight, type ReleasePlan } from "../../domain/releaseplans/ReleasePlan.js"
import * as T from "../../domain/releaseplans/Transitions.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { type ClaimedPlan, ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import { Flags } from "../flags/Flags.js"
import * as Writes from "../shared/Writes.js"
import { Guardrails } from "./Guardrails.js"
import { changesMeasuring, measuringChanged, planEntry, replacePlan } from "./PlanWrite.js"

/** What happened to one claimed plan. `lost`: another writer changed it first, nothing of this run remains. */
export type StepOutcome = "advanced" | "completed" | "harmed" | "paused" | "checked" | "lost" | "retry"

export interface StepperOptions {
  /** How long a claim protects a plan from other steppers (far longer than a step takes). */
  readonly lease: Duration.DurationInput
  readonly batchSize: number
}

class LeaseLost extends Data.TaggedError("LeaseLost")<{}> {}

/** The targeting write of one weight, as the plan's actor; the reason it could not be applied, or null. */
const writeWeight = (projectId: string, plan: ReleasePlan, weight: number) =>
  Effect.gen(function* () {
    const flags = yield* Flags
    const stored = yield* (yield* FlagRepository).get(projectId, plan.flagKey)
    if (Option.isNone(stored)) return `flag '${plan.flagKey}' no longer exists`
    const config = stored.value.configs.find((c) => c.environmentKey === plan.environment)
    const rule = config?.rules.find((r) => r.id === plan.ruleId)
    if (config === undefined || rule === undefined) return `rule '${plan.ruleId}' is no longer in the targeting of '${plan.environment}'`
    const input: TargetingInput = {
      environment: plan.environment,
      enabled: config.enabled,
      defaultVariationKey: config.defaultVariationKey,
      offVariationKey: config.offVariationKey,
      prerequisites: config.prerequisites ?? [],
      rules: config.rules.map((r) => (r.id === plan.ruleId ? applyStep(r, { variationKey: plan.variationKey, baseline: plan.baseline ?? [] }, weight) : r))
    }
    return yield* flags.replaceTargeting(projectId, plan.flagKey, input, { flagId: stored.value.id }).pipe(
      Effect.as<string | null>(null),
      Effect.catchTags({
        InvalidRequest: (e) => Effect.succeed(`${e.message}: ${e.details.map((d) => `${d.path} ${d.message}`).join("; ")}`),
        ResourceNotFound: (e) => Effect.succeed(e.message),
        // The plan's steps are automation, never a person's hand; an approval was its start's.
        ChangeRequestRequired: (e) => Effect.die(e),
        PreconditionFailed: (e) => Effect.die(e),
        Forbidden: (e) => Effect.die(e)
      }),
      Effect.provideService(CurrentCaller, operator),
      Effect.provideService(CurrentActor, T.stepActor(plan))
    )
  })

/** One claimed plan: check, step or complete, and store it, atomically. */
export const advance = (owner: string, { plan, projectId }: ClaimedPlan) =>
  Effect.gen(function* () {
    const writes = yield* Writes.writer
    const guardrails = yield* Effect.serviceOption(Guardrails)
    return yield* writes.record(projectId, ({ millis, now }) =>
      Effect.gen(function* () {
        const check = plan.guardrails.length === 0 || Option.isNone(guardrails) ? null : yield* guardrails.value.check(projectId, plan)
        let after: ReleasePlan
        let outcome: StepOutcome
        if (check !== null && check.outcome === "harmed") {
          const action = plan.onHarm === "rollback" ? "rolledBack" as const : "paused" as const
          const failure = action === "rolledBack" && plan.currentStep !== null ? yield* writeWeight(projectId, plan, 0) : null
          if (failure !== null) yield* Effect.logWarning(`release plan ${plan.id} could not roll back: ${failure}`)
          after = T.harmed(plan, { at: now, action, weight: currentWeight(plan), check }, millis)
          outcome = "harmed"
        } else if (plan.nextStepAt !== null && plan.nextStepAt <= now) {
          const index = T.nextStepIndex(plan)
          if (index === null) {
            after = T.completed(plan, millis)
            outcome = "completed"
          } else {
            const failure = yield* writeWeight(projectId, plan, plan.steps[index]!.weight)
            after = failure === null ? T.stepped(plan, index, millis) : T.paused(plan, "stepFailed", millis, failure)
            outcome = failure === null ? "advanced" : "paused"
          }
        } else {
          // Only a check, and no harm: the plan is as it was, looked at again later.
          after = plan
          outcome = "checked"
        }
        // Harm and completion stop the plan's measuring: announced (and the project's lock taken, as a
        // step's targeting write takes it) before the plan is stored.
        if (changesMeasuring(plan, after)) {
          yield* writes.serving(projectId, ({ revision }) => Effect.succeed({ value: undefined, change: measuringChanged(projectId, revision, after) })).pipe(
            // Its project deleted meanwhile: so is the plan.
            Effect.catchTag("ResourceNotFound", () => new LeaseLost())
          )
        }
        if (!(yield* replacePlan(projectId, plan, after, millis, owner))) return yield* new LeaseLost()
        const eventType = outcome === "checked" ? null : `release_plan.${outcome}` as const
        return {
          value: outcome,
          audit: eventType === null ? [] : [planEntry(eventType, plan, after)],
          events: eventType === null ? [] : [{ type: eventType, releasePlan: after }]
        } satisfies Writes.Recorded<StepOutcome>
      })).pipe(
      // Around the whole write, not only its body: the writer appends the audit entries after the
      // body, and reads their actor then (AuditTrail.recorder); inside, they were the default `cli`.
      Effect.provideService(CurrentActor, T.stepActor(plan))
    )
  }).pipe(
    Effect.catchTag("LeaseLost", () => Effect.succeed<StepOutcome>("lost")),
    Effect.withSpan("ReleaseStepper.advance", { root: true, attributes: { releasePlanId: plan.id } })
  )

/** Claims the due plans for `owner` and advances each; one that cannot be advanced now is retried after its lease. */
export const stepDuePlans = (owner: string, options: StepperOptions) =>
  Effect.gen(function* () {
    const repo = yield* ReleasePlanRepository
    const nowMillis = yield* Clock.currentTimeMillis
    const claimed = yield* repo.claimDue({
      now: formatTimestamp(nowMillis),
      owner,
      leaseUntil: formatTimestamp(nowMillis + Duration.toMillis(Duration.decode(options.lease))),
      limit: options.batchSize
    })
    return yield* Effect.forEach(claimed, (one) =>
      advance(owner, one).pipe(
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.as(Effect.logWarning(`release plan ${one.plan.id} could not advance; it is retried after its lease`, cause), "retry" as const)
        )
      ))
  })
