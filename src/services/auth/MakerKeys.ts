/**
 * The keys a person made live only as long as that person may manage the key's project: when they
 * are disabled, stop being a global admin, or lose `manage` in a project (demoted or removed), the
 * keys they made there are revoked in the same write, as their pending schedules are cancelled when
 * they are disabled. Otherwise a departing admin keeps managing the project through a key.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Actor } from "../../domain/audit/Actor.js"
import { roleAllows } from "../../domain/people/Grants.js"
import { ApiKeyRepository } from "../../ports/ApiKeyRepository.js"
import { UserRepository } from "../../ports/UserRepository.js"
import * as KeyRevocation from "./KeyRevocation.js"

/** Why a key is not made for a person who may no longer keep it (403). */
export const MAKER_MAY_NOT_MANAGE = "The person this key would be made for is disabled or may no longer manage this project, so it is not made."

/** Why a person's key was revoked, as its `key.revoked` audit entry says. */
export const MakerReasons = {
  disabled: "Its maker was disabled.",
  demoted: "Its maker is no longer a global admin and does not manage this project.",
  roleChanged: "Its maker's role in this project no longer manages it.",
  removed: "Its maker was removed from this project."
} as const

/**
 * Who a new key's maker is: the signed-in person, or, for a key made by a key, that key's maker
 * (so a person cannot outlive their rights through a chain of keys); null for the operator.
 */
export const makerOf = Effect.gen(function* () {
  const keys = yield* ApiKeyRepository
  return (actor: Actor) =>
    actor.type === "user"
      ? Effect.succeed(actor.userId ?? null)
      : actor.type === "key" && actor.keyId !== undefined
        ? Effect.map(keys.get(actor.keyId), (key) => Option.getOrNull(Option.flatMap(key, (k) => Option.fromNullable(k.createdBy))))
        : Effect.succeed(null)
})

/**
 * Which projects `userId` may keep keys in now: a test of a project id (null: a global key), true
 * while they exist, are not disabled, and are a global admin or may `manage` the project.
 */
const keeperOf = (users: typeof UserRepository.Service, userId: string) =>
  Effect.gen(function* () {
    const user = yield* users.get(userId)
    const memberships = yield* users.membershipsOf(userId)
    return (projectId: string | null) =>
      Option.exists(user, (u) => u.disabledAt === null && (u.admin || memberships.some((m) => m.projectId === projectId && roleAllows(m.role, "manage"))))
  })

/**
 * Inside the write that makes a key for `userId` (its maker) in `projectId`: holds the maker's
 * row until the write ends (UserRepository.lockUser), then whether they may keep it. A write that
 * disables or demotes them at the same moment then runs wholly before this one (which sees it, and
 * the key is refused) or wholly after (whose revocation sees the new key), never across it.
 */
export const keeping = Effect.gen(function* () {
  const users = yield* UserRepository
  return (userId: string, projectId: string | null) =>
    Effect.zipRight(users.lockUser(userId), Effect.map(keeperOf(users, userId), (manages) => manages(projectId)))
})

/**
 * Revokes, inside the running write and after its own change, each live key `userId` made whose
 * project they may no longer manage (every one of them when they are disabled), each a nested
 * write with its `key.revoked` entry giving `reason`.
 */
export const revoker = Effect.gen(function* () {
  const keys = yield* ApiKeyRepository
  const users = yield* UserRepository
  const revoke = yield* KeyRevocation.revoker
  return (userId: string, reason: string) =>
    Effect.gen(function* () {
      const made = yield* keys.liveMadeBy(userId)
      if (made.length === 0) return
      const manages = yield* keeperOf(users, userId)
      yield* Effect.forEach(made.filter((key) => !manages(key.projectId)), (key) => revoke(key, reason), { discard: true })
    })
})
