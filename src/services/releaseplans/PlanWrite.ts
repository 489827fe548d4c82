/**
 * A change of one release plan as a write (Writes.record): the plan replaced by compare-and-set on
 * the version it was read at, its audit entry and its webhook event, all in one transaction. The
 * use cases (ReleasePlans.ts), a person's targeting change (PlanPauses.ts) and the stepper
 * (ReleaseStepper.ts) all change plans through `replacePlan`, so a plan changed meanwhile by
 * another writer is never overwritten.
 */
import * as Effect from "effect/Effect"
import { ResourceConflict } from "../../domain/Errors.js"
import { isActive, type ReleasePlan } from "../../domain/releaseplans/ReleasePlan.js"
import { dueAtOf } from "../../domain/releaseplans/Transitions.js"
import type { ReleasePlanEventType } from "../../domain/webhooks/Webhook.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import * as Writes from "../shared/Writes.js"
import { GuardrailCheckEvery } from "./PlanSettings.js"

/** The plan's audit entry (naming the change request a start or resume applies, if any). */
export const planEntry = (action: string, before: ReleasePlan | null, after: ReleasePlan | null, changeRequestId?: string): Writes.AuditDraft => {
  const plan = (after ?? before)!
  return {
    action,
    resource: { type: "release_plan", key: plan.id },
    environment: plan.environment,
    before,
    after,
    ...(changeRequestId === undefined ? {} : { changeRequestId })
  }
}

/** What a plan write did: the plan before and after, its audit action, its webhook event if any. */
export interface PlanChange {
  readonly before: ReleasePlan
  readonly after: ReleasePlan
  readonly action: string
  readonly event?: ReleasePlanEventType
  /** The approved change request this change applies (a start or resume in a protected environment). */
  readonly changeRequestId?: string | undefined
}

/**
 * Stores `after` over `before` (the version read), with when the stepper must next look at it;
 * false when the plan changed meanwhile (or, with `owner`, when that stepper lost its lease).
 */
export const replacePlan = (projectId: string, before: ReleasePlan, after: ReleasePlan, nowMillis: number, owner?: string) =>
  Effect.gen(function* () {
    const repo = yield* ReleasePlanRepository
    const checkEvery = yield* GuardrailCheckEvery
    return yield* repo.replace(projectId, after, {
      expectedVersion: before.version,
      dueAt: dueAtOf(after, nowMillis, checkEvery),
      ...(owner === undefined ? {} : { owner })
    })
  })

/**
 * A running plan's rule is measured (RunningMeasures.ts): `GET /v1/config` names it so SDKs send
 * exposures, and the server records its own evaluations' exposures. A plan that starts or stops
 * running (start, pause, resume, cancel, harm, completion) changes that in its environment, so its
 * write is a serving one (the project's revision bumped, the change announced after commit), as an
 * experiment's start and stop are: snapshots, streams and the server's exposure tap follow at once.
 */
export const measuringChanged = (projectId: string, revision: number, plan: Pick<ReleasePlan, "environment" | "flagKey">) =>
  configChanged(projectId, revision, "experiment", { environments: [plan.environment], flagKeys: [plan.flagKey] })

/** Whether the plan's change starts or stops its measuring. */
export const changesMeasuring = (before: Pick<ReleasePlan, "status">, after: Pick<ReleasePlan, "status">): boolean => isActive(before) !== isActive(after)

/**
 * The write of a use case that changes one plan; a plan changed since it was read is a 409. The
 * guardrails' check interval is the one in force when the use case is built (PlanSettings.ts).
 * `measuring`: the change may start or stop the plan's measuring (start, pause, resume, cancel): a
 * serving write that announces it when it does. It takes the project's write lock first, as the
 * stepper's writes do (the targeting write of a step, then the plan), so the two never wait on
 * each other in opposite orders.
 */
export const planWrite = Effect.gen(function* () {
  const writes = yield* Writes.writer
  const repo = yield* ReleasePlanRepository
  const checkEvery = yield* GuardrailCheckEvery
  return <E, R>(projectId: string, body: (time: Writes.WriteTime) => Effect.Effect<PlanChange, E, R>, measuring = false) => {
    const written = (time: Writes.WriteTime, revision: number | null) =>
      Effect.gen(function* () {
        const change = yield* body(time)
        const stored = yield* replacePlan(projectId, change.before, change.after, time.millis).pipe(
          Effect.provideService(ReleasePlanRepository, repo),
          Effect.provideService(GuardrailCheckEvery, checkEvery)
        )
        if (!stored) return yield* new ResourceConflict({ message: `Release plan '${change.before.id}' changed meanwhile; read it again` })
        return {
          value: change.after,
          audit: [planEntry(change.action, change.before, change.after, change.changeRequestId)],
          events: change.event === undefined ? [] : [{ type: change.event, releasePlan: change.after }],
          ...(revision === null || !changesMeasuring(change.before, change.after) ? {} : { change: measuringChanged(projectId, revision, change.after) })
        } satisfies Writes.Written<ReleasePlan>
      })
    return measuring ? writes.serving(projectId, (time) => written(time, time.revision)) : writes.record(projectId, (time) => written(time, null))
  }
})

export type PlanWriteError = ResourceConflict | StorageError
