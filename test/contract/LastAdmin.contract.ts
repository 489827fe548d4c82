import { expect } from "@effect/vitest"
import { Effect, Either } from "effect"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { LAST_ADMIN, type UserPatch, Users } from "../../src/services/people/Users.js"
import { type Contract, freshProjectId } from "./Backend.js"

const DISABLED_AT = "2026-11-20T08:00:00.000Z"

/**
 * Leaves exactly `count` fresh global admins enabled: every other enabled one (earlier tests' on
 * this shared database) is disabled through the repository, which the suites after this one do not need.
 */
const onlyAdmins = (count: number) =>
  Effect.gen(function* () {
    const repo = yield* UserRepository
    const users = yield* Users
    for (const user of yield* repo.list()) {
      if (user.admin && user.disabledAt === null) yield* repo.update({ ...user, disabledAt: DISABLED_AT })
    }
    const made = yield* Effect.forEach(Array.from({ length: count }), () =>
      users.create({ email: `admin.${freshProjectId()}@example.com`, password: "correct horse battery staple", admin: true }))
    expect(yield* repo.countAdmins()).toBe(count)
    return made
  })

/**
 * No write leaves the server without an enabled global admin, decided inside the write: of two
 * changes at once that each take one of the last two admins away, one is refused (409) and
 * changes nothing, on every backend (PostgreSQL's transactions otherwise each see the other admin).
 */
export const lastAdminContract: Contract = (it) => {
  for (const [label, patch] of [["demoting", { admin: false }], ["disabling", { disabled: true }]] as const) {
    it.effect(`two changes ${label} the last two admins at once: one passes, the other is a 409 that changes nothing`, () =>
      Effect.gen(function* () {
        const users = yield* Users
        const repo = yield* UserRepository
        for (let round = 0; round < 5; round++) {
          const [a, b] = yield* onlyAdmins(2)
          const outcomes = yield* Effect.all([users.update(a!.id, patch as UserPatch), users.update(b!.id, patch as UserPatch)].map(Effect.either), {
            concurrency: "unbounded"
          })
          expect(outcomes.filter(Either.isRight).length).toBe(1)
          const refused = outcomes.find(Either.isLeft)
          expect(refused?.left).toMatchObject({ _tag: "ResourceConflict", message: LAST_ADMIN })
          expect(yield* repo.countAdmins()).toBe(1)
          // The refused one is untouched: still an enabled admin.
          const kept = outcomes[0]!._tag === "Left" ? a! : b!
          expect(yield* users.get(kept.id)).toMatchObject({ admin: true, disabledAt: null })
        }
      }))
  }

  it.effect("a change that keeps an enabled admin passes; the last one cannot be demoted or disabled", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const [last] = yield* onlyAdmins(1)
      for (const patch of [{ admin: false }, { disabled: true }, { admin: false, disabled: true }]) {
        expect(yield* Effect.flip(users.update(last!.id, patch))).toMatchObject({ _tag: "ResourceConflict", message: LAST_ADMIN })
      }
      // A name change, or re-enabling/promoting, is no such change.
      expect(yield* users.update(last!.id, { name: "Still here" })).toMatchObject({ name: "Still here", admin: true })
      const [, other] = yield* onlyAdmins(2)
      expect(yield* users.update(other!.id, { admin: false })).toMatchObject({ admin: false })
    }))
}
