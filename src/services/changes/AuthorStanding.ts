/**
 * Whether a person may still have a change of theirs applied later (a schedule, or a change
 * request given a time): checked when it comes due, in the apply's transaction. The person must
 * exist, not be disabled, and still be allowed to write in the project (editor or admin there, or a
 * global admin). A key must not have been revoked (a departing person or a stolen key must not
 * leave changes behind that apply later; keys are never deleted, so an id no key has is an actor of
 * an Effect host). The scheduler judges a key's schedule with a message of its own (Scheduler.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Actor } from "../../domain/audit/Actor.js"
import { roleAllows } from "../../domain/people/Grants.js"
import type { StorageError } from "../../ports/StorageError.js"
import { ApiKeyRepository } from "../../ports/ApiKeyRepository.js"
import { UserRepository } from "../../ports/UserRepository.js"

/** Why `actor`'s change can no longer be applied in `projectId`, or null when it can (or the actor is no person). */
export const refusal = Effect.gen(function* () {
  const users = yield* UserRepository
  const keys = yield* ApiKeyRepository
  return (actor: Actor, projectId: string): Effect.Effect<string | null, StorageError> =>
    Effect.gen(function* () {
      if (actor.keyId !== undefined) {
        const key = yield* keys.get(actor.keyId)
        if (Option.isSome(key) && key.value.revokedAt !== null) {
          return `The API key that made this (${actor.keyName ?? actor.keyId}) was revoked; a change is applied only while its author can make it.`
        }
      }
      if (actor.userId === undefined) return null
      const who = actor.email ?? actor.userId
      const why = (what: string) => `${who}, who made this, ${what}; a change is applied only while its author can make it.`
      const user = yield* users.get(actor.userId)
      if (Option.isNone(user)) return why("no longer exists")
      if (user.value.disabledAt !== null) return why("was disabled")
      if (user.value.admin) return null
      const role = (yield* users.membershipsOf(actor.userId)).find((m) => m.projectId === projectId)?.role
      if (role === undefined) return why("is no longer a member of this project")
      return roleAllows(role, "write") ? null : why(`can no longer change flags in this project (now ${role})`)
    })
})
