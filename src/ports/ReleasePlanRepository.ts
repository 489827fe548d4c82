import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { ReleasePlan } from "../domain/releaseplans/ReleasePlan.js"
import type { StorageError } from "./StorageError.js"

/** A plan with its project, as the stepper claims it. */
export interface ClaimedPlan {
  readonly projectId: string
  readonly plan: ReleasePlan
}

export interface PlanClaimRequest {
  /** The current time; plans due at or before it may be claimed. */
  readonly now: string
  /** Who claims (one id per scheduler instance). */
  readonly owner: string
  /** Until when the lease holds; after it another stepper may claim the plan again. */
  readonly leaseUntil: string
  readonly limit: number
}

export interface PlanReplacement {
  /** The plan's version as read; the replacement happens only if it is still the stored one. */
  readonly expectedVersion: number
  /** When the stepper must next look at the plan (a step or a guardrail check); null: never. */
  readonly dueAt: string | null
  /** The stepper's lease owner: the replacement happens only while it holds the plan's lease (then released). */
  readonly owner?: string
}

/**
 * Release plans, by project, flag and id. Writes run inside the write's
 * `Transactor.withTransaction`, so a plan changes together with the targeting write of its step,
 * its audit entry and its webhook events, or not at all.
 *
 * Exactly-once steps rest on two things here: `claimDue` leases a plan to one stepper at a time
 * (on PostgreSQL with FOR UPDATE SKIP LOCKED), and `replace` is a compare-and-set on the plan's
 * version, run in the step's transaction: a second stepper that read the same version (its lease
 * lapsed) finds it changed and rolls its step back.
 */
export interface ReleasePlanRepositoryShape {
  /** Stores a new plan; `dueAt` as for `replace`. */
  readonly insert: (projectId: string, plan: ReleasePlan, dueAt: string | null) => Effect.Effect<void, StorageError>
  /** The flag's plans in the project, in creation order. */
  readonly list: (projectId: string, flagKey: string) => Effect.Effect<ReadonlyArray<ReleasePlan>, StorageError>
  /** One plan of the flag, if it exists (one of another flag or project is not found). */
  readonly get: (projectId: string, flagKey: string, id: string) => Effect.Effect<Option.Option<ReleasePlan>, StorageError>
  /**
   * The project's plans in the given statuses (of one environment, and one flag, when named), in
   * creation order: the plans holding a flag's environment, the running ones a guardrail collects for.
   */
  readonly listIn: (
    projectId: string,
    statuses: ReadonlyArray<ReleasePlan["status"]>,
    where?: { readonly environment?: string; readonly flagKey?: string }
  ) => Effect.Effect<ReadonlyArray<ReleasePlan>, StorageError>
  /**
   * Replaces the stored plan (same project, flag and id) when its version is still
   * `expectedVersion` (and, with `owner`, while that owner holds its lease, which is then
   * released). Returns false and changes nothing otherwise.
   */
  readonly replace: (projectId: string, plan: ReleasePlan, replacement: PlanReplacement) => Effect.Effect<boolean, StorageError>
  /** Deletes the plan; false when there was none. */
  readonly remove: (projectId: string, flagKey: string, id: string) => Effect.Effect<boolean, StorageError>
  /**
   * Leases due plans to `owner`, atomically, so concurrent steppers (even in other processes on one
   * PostgreSQL) never hold the same plan at once. Claimable: `dueAt <= now` and no unexpired lease.
   * At most `limit`, earliest `dueAt` first.
   */
  readonly claimDue: (request: PlanClaimRequest) => Effect.Effect<ReadonlyArray<ClaimedPlan>, StorageError>
}

export class ReleasePlanRepository extends Context.Tag("@flagport/ports/ReleasePlanRepository")<
  ReleasePlanRepository,
  ReleasePlanRepositoryShape
>() {}
