import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Actor } from "../domain/audit/Actor.js"
import type { ScheduleStatus, StoredTargeting } from "../domain/schedules/Schedule.js"
import type { StorageError } from "./StorageError.js"

/** A schedule as stored. Timestamps are ISO 8601 UTC with milliseconds, compared as text. */
export interface StoredSchedule {
  readonly id: string
  readonly projectId: string
  readonly flagKey: string
  /**
   * The id of the flag when the schedule was made: a flag deleted and made again under the same
   * key is another flag, which the schedule must not change.
   */
  readonly flagId: string
  readonly environment: string
  readonly at: string
  readonly targeting: StoredTargeting
  readonly status: ScheduleStatus
  /** Why it failed; null unless `failed`. */
  readonly reason: string | null
  /** Who made it; the scheduler applies it as `{ type: "schedule", keyId: actor.keyId }`. */
  readonly actor: Actor
  readonly createdAt: string
  /** When it was applied, failed or cancelled; null while pending. */
  readonly settledAt: string | null
}

export interface ScheduleClaimRequest {
  /** The current time; schedules due at or before it may be claimed. */
  readonly now: string
  /** Who claims (one id per scheduler instance); only the owner may settle the schedule. */
  readonly owner: string
  /** Until when the lease holds; after it another scheduler may claim the schedule again. */
  readonly leaseUntil: string
  readonly limit: number
}

export interface Settlement {
  readonly id: string
  readonly owner: string
  readonly status: "applied" | "failed"
  readonly reason: string | null
  readonly settledAt: string
}

/**
 * Scheduled changes and their leases. Methods that write should run inside a
 * `Transactor.withTransaction`; `settle` must run in the same transaction as the change it
 * records, which is what makes a schedule apply exactly once.
 */
export interface ScheduleRepositoryShape {
  /** Stores a new pending schedule. */
  readonly insert: (schedule: StoredSchedule) => Effect.Effect<void, StorageError>
  /** The flag's schedules in the project, in creation order. */
  readonly list: (projectId: string, flagKey: string) => Effect.Effect<ReadonlyArray<StoredSchedule>, StorageError>
  /**
   * The pending schedules, earliest `at` first: of one project (null: of every project, for a
   * global key's revocation), optionally of one environment.
   */
  readonly listPending: (projectId: string | null, environment?: string) => Effect.Effect<ReadonlyArray<StoredSchedule>, StorageError>
  /** One schedule of the flag, if it exists (one of another flag or project is not found). */
  readonly get: (projectId: string, flagKey: string, id: string) => Effect.Effect<Option.Option<StoredSchedule>, StorageError>
  /**
   * Cancels the schedule if it is still pending (leased or not: a scheduler that holds it then
   * finds it no longer pending when it settles). Returns false when it was not pending.
   */
  readonly cancel: (id: string, settledAt: string) => Effect.Effect<boolean, StorageError>
  /**
   * Leases due schedules to `owner`, atomically, so that concurrent schedulers (even in other
   * processes on one PostgreSQL) never hold the same schedule at once. Claimable: pending, due
   * (`at <= now`) and no unexpired lease. At most `limit`, earliest `at` first.
   */
  readonly claimDue: (request: ScheduleClaimRequest) => Effect.Effect<ReadonlyArray<StoredSchedule>, StorageError>
  /**
   * Settles a schedule `owner` still holds and that is still pending: status, reason, lease
   * released. Returns false (and changes nothing) otherwise; the caller then rolls its
   * transaction back, so the change it made is undone and another owner's run stands alone.
   */
  readonly settle: (settlement: Settlement) => Effect.Effect<boolean, StorageError>
}

export class ScheduleRepository extends Context.Tag("@flagport/ports/ScheduleRepository")<
  ScheduleRepository,
  ScheduleRepositoryShape
>() {}
