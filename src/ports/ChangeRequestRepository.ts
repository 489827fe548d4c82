import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { ChangeRequestStatus, StoredChangeRequest } from "../domain/changes/ChangeRequest.js"
import type { DuplicateKey, StorageError } from "./StorageError.js"

/** What the scheduler's claim of due change requests needs (as ScheduleRepository.claimDue). */
export interface ClaimDueChangeRequests {
  readonly now: string
  readonly owner: string
  readonly leaseUntil: string
  readonly limit: number
}

export interface ChangeRequestRepositoryShape {
  /** Stores a new change request (DuplicateKey for a taken id). */
  readonly insert: (request: StoredChangeRequest) => Effect.Effect<void, DuplicateKey | StorageError>
  /** One change request of the project, if any. */
  readonly get: (projectId: string, id: string) => Effect.Effect<Option.Option<StoredChangeRequest>, StorageError>
  /** The project's change requests, newest first, of one status when named. */
  readonly list: (projectId: string, status?: ChangeRequestStatus) => Effect.Effect<ReadonlyArray<StoredChangeRequest>, StorageError>
  /**
   * Replaces the stored request with `request` (whose `version` is the next one) only while the
   * stored version is still `expectedVersion`: the compare-and-set that makes an apply, an approval
   * or an update happen once even when two processes race. False when it moved on (nothing written).
   */
  readonly replace: (request: StoredChangeRequest, expectedVersion: number) => Effect.Effect<boolean, StorageError>
  /**
   * Leases to `owner` up to `limit` approved requests whose `applyAt` has come, with no failure
   * recorded and no lease held by another scheduler (on PostgreSQL with FOR UPDATE SKIP LOCKED),
   * earliest first. The lease only spreads the work: the apply itself is the compare-and-set.
   */
  readonly claimDue: (claim: ClaimDueChangeRequests) => Effect.Effect<ReadonlyArray<StoredChangeRequest>, StorageError>
}

export class ChangeRequestRepository extends Context.Tag("@flagport/ports/ChangeRequestRepository")<
  ChangeRequestRepository,
  ChangeRequestRepositoryShape
>() {}
