/**
 * Whether a change request's approvals still stand (docs/guide/change-requests.md, "Approvals that no
 * longer count"): an approval counts only while its author may still approve in the project
 * (domain/changes/ApprovalCounting.ts), judged now: when the request is applied (by hand or by the
 * scheduler) and whenever it is shown. An approver since demoted, removed from the project or
 * disabled, or any key's approval (approvals are people's), leaves the approval listed (it is
 * history) but not counted. The
 * actor's role is read here too, for the rules (ChangeRequestRules.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Actor } from "../../domain/audit/Actor.js"
import { notCountingReason, roleOfStanding, type Standing } from "../../domain/changes/ApprovalCounting.js"
import { actorIdentity, type Approval, type ChangeRequest, type CountedApproval, recordOf, type StoredChangeRequest } from "../../domain/changes/ChangeRequest.js"
import type { Role } from "../../domain/people/Role.js"
import { ApiKeyRepository } from "../../ports/ApiKeyRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { UserRepository } from "../../ports/UserRepository.js"

export const make = Effect.gen(function* () {
  const users = yield* UserRepository
  const keys = yield* ApiKeyRepository

  /**
   * The actor's standing in the project now: a person's membership (admin for a global admin;
   * none when disabled or gone); a key acts as an admin until it is revoked, the operator always.
   */
  const standingOf = (projectId: string, actor: Actor): Effect.Effect<Standing, StorageError> =>
    Effect.gen(function* () {
      if (actor.type !== "user" || actor.userId === undefined) {
        if (actor.keyId === undefined) return { role: "admin" }
        const key = yield* keys.get(actor.keyId)
        // Keys are never deleted: an id no key has is an Effect host's actor.
        return Option.isSome(key) && key.value.revokedAt !== null ? { absence: "revoked" } : { role: "admin" }
      }
      const user = yield* users.get(actor.userId)
      if (Option.isNone(user)) return { absence: "removed" }
      if (user.value.disabledAt !== null) return { absence: "disabled" }
      if (user.value.admin) return { role: "admin" }
      const role = (yield* users.membershipsOf(actor.userId)).find((m) => m.projectId === projectId)?.role
      return role === undefined ? { absence: "removed" } : { role }
    })

  /** The actor's role in the project now (null: none). */
  const roleOf = (projectId: string, actor: Actor): Effect.Effect<Role | null, StorageError> => Effect.map(standingOf(projectId, actor), roleOfStanding)

  /**
   * Each approval with whether it counts now and, if not, why. One reading per approver however
   * many approvals name them (`seen`, shared across the requests of one answer).
   */
  const judged = (projectId: string, approvals: ReadonlyArray<Approval>, seen = new Map<string, Standing>()) =>
    Effect.forEach(approvals, (approval): Effect.Effect<CountedApproval, StorageError> =>
      Effect.gen(function* () {
        const identity = actorIdentity(approval.by)
        const standing = seen.get(identity) ?? (yield* standingOf(projectId, approval.by))
        seen.set(identity, standing)
        const reason = notCountingReason(approval.by, standing)
        return { ...approval, counts: reason === null, notCountingReason: reason }
      }))

  /** The approvals that count now: those whose authors may still approve in the project. */
  const counted = (projectId: string, approvals: ReadonlyArray<Approval>): Effect.Effect<ReadonlyArray<Approval>, StorageError> =>
    Effect.map(judged(projectId, approvals), (all) => approvals.filter((_, i) => all[i]!.counts))

  /** The request as the API shows it: each approval judged now, how many count; the storage's version left out. */
  const shown = (stored: StoredChangeRequest, seen?: Map<string, Standing>): Effect.Effect<ChangeRequest, StorageError> =>
    Effect.map(judged(stored.projectId, stored.approvals, seen), (approvals) => ({
      ...recordOf(stored),
      approvals,
      countingApprovals: approvals.filter((a) => a.counts).length
    }))

  /** Several requests of one project as the API shows them, each approver read once. */
  const shownAll = (requests: ReadonlyArray<StoredChangeRequest>): Effect.Effect<ReadonlyArray<ChangeRequest>, StorageError> => {
    const seen = new Map<string, Standing>()
    return Effect.forEach(requests, (request) => shown(request, seen))
  }

  return { standingOf, roleOf, counted, shown, shownAll }
})
