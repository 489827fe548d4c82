/**
 * Whether a change request's approvals still stand (docs/change-requests.md, "Approvals that no
 * longer count"): an approval counts only while its author may still approve in the project, judged
 * when the request is applied (by hand or by the scheduler). An approver since demoted, removed from
 * the project or disabled, or a key since revoked, leaves the approval listed (it is history) but
 * not counted. The actor's role is read here too, for the rules (ChangeRequestRules.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Actor } from "../domain/audit/Actor.js"
import type { Approval } from "../domain/changes/ChangeRequest.js"
import { type Role, roleAllows } from "../domain/people/Role.js"
import { ApiKeyRepository } from "../ports/ApiKeyRepository.js"
import type { StorageError } from "../ports/StorageError.js"
import { UserRepository } from "../ports/UserRepository.js"

export const make = Effect.gen(function* () {
  const users = yield* UserRepository
  const keys = yield* ApiKeyRepository

  /**
   * The actor's role in the project now: a person's membership (admin for a global admin; none when
   * disabled or gone); a key acts as an admin until it is revoked, the operator always.
   */
  const roleOf = (projectId: string, actor: Actor): Effect.Effect<Role | null, StorageError> =>
    Effect.gen(function* () {
      if (actor.type !== "user" || actor.userId === undefined) {
        if (actor.keyId === undefined) return "admin"
        const key = yield* keys.get(actor.keyId)
        // Keys are never deleted: an id no key has is an Effect host's actor.
        return Option.isSome(key) && key.value.revokedAt !== null ? null : "admin"
      }
      const user = yield* users.get(actor.userId)
      if (Option.isNone(user) || user.value.disabledAt !== null) return null
      if (user.value.admin) return "admin"
      return (yield* users.membershipsOf(actor.userId)).find((m) => m.projectId === projectId)?.role ?? null
    })

  /** The approvals that count now: those whose authors may still approve in the project. */
  const counted = (projectId: string, approvals: ReadonlyArray<Approval>): Effect.Effect<ReadonlyArray<Approval>, StorageError> =>
    Effect.filter(approvals, (approval) => Effect.map(roleOf(projectId, approval.by), (role) => role !== null && roleAllows(role, "approve")))

  return { roleOf, counted }
})
