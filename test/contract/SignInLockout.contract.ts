import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { SIGN_IN_FAILURE_LIMIT, SIGN_IN_SLOW_DELAY_MS } from "../../src/domain/people/SignInLimit.js"
import { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { SignIn } from "../../src/services/people/SignIn.js"
import { Users } from "../../src/services/people/Users.js"
import { type Contract, freshProjectId } from "./Backend.js"

/**
 * The failed sign-in limits count per email and client address, so nobody locks a person out from
 * an address of their own: that address is refused, others are slowed, never refused, and a
 * global admin clears the lot.
 */

const fresh = () => freshProjectId().slice(2)
const PASSWORD = "correct horse battery staple"
const T = (minute: number) => `2026-11-21T09:${String(minute).padStart(2, "0")}:00.000Z`
const EARLIER = "2000-01-01T00:00:00.000Z"

/** The milliseconds `effect` took, with its result. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const started = Date.now()
    const result = yield* effect
    return { result, ms: Date.now() - started }
  })

export const signInLockoutContract: Contract = (it) => {
  it.effect("admit counts per email and address; count adds every address; clear forgets one address or all", () =>
    Effect.gen(function* () {
      const failures = yield* SignInFailureRepository
      const email = `pair.${fresh()}@example.com`
      for (let i = 1; i <= 3; i++) expect(yield* failures.admit(email, "192.0.2.1", T(i), EARLIER, 3)).toEqual({ _tag: "Admitted" })
      expect(yield* failures.admit(email, "192.0.2.1", T(4), EARLIER, 3)).toEqual({ _tag: "Refused", failures: [T(1), T(2), T(3)] })
      // Another address has its own count, and an unknown one ("") its own too.
      expect(yield* failures.admit(email, "192.0.2.2", T(5), EARLIER, 3)).toEqual({ _tag: "Admitted" })
      expect(yield* failures.admit(email, "", T(6), EARLIER, 3)).toEqual({ _tag: "Admitted" })
      expect(yield* failures.count(email, EARLIER)).toBe(5)
      expect(yield* failures.count(email, T(2))).toBe(3)
      expect(yield* failures.since(email, EARLIER, "192.0.2.2")).toEqual([T(5)])
      expect(yield* failures.since(email, EARLIER)).toEqual([T(1), T(2), T(3), T(5), T(6)])
      yield* failures.clear(email, "192.0.2.1")
      expect(yield* failures.since(email, EARLIER)).toEqual([T(5), T(6)])
      yield* failures.clear(email)
      expect(yield* failures.count(email, EARLIER)).toBe(0)
    }))

  it.effect("ten failures from one address: that address is refused, even the right password; another is slowed, not refused", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `Target.${fresh()}@example.com`
      const user = yield* users.create({ email, password: PASSWORD })
      for (let i = 0; i < SIGN_IN_FAILURE_LIMIT; i++) {
        const wrong = yield* Effect.flip(signIn.withPassword(email, `wrong password ${i}`, "203.0.113.66"))
        expect(wrong._tag).toBe("Unauthenticated")
      }
      const refused = yield* Effect.flip(signIn.withPassword(email, PASSWORD, "203.0.113.66"))
      expect(refused._tag).toBe("RateLimited")
      // The person, from their own address: in, after the slow-down the email's failures earn.
      const own = yield* timed(signIn.withPassword(email, PASSWORD, "198.51.100.20"))
      expect(own.result.user.id).toBe(user.id)
      expect(own.ms).toBeGreaterThanOrEqual(SIGN_IN_SLOW_DELAY_MS - 50)
      // Their success forgets their own address's failures only: the guesser is still refused.
      expect((yield* Effect.flip(signIn.withPassword(email, PASSWORD, "203.0.113.66")))._tag).toBe("RateLimited")
    }))

  it.effect("a global admin's unlock forgets the failures of every address: no refusal, no slow-down", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const signIn = yield* SignIn
      const email = `locked.${fresh()}@example.com`
      const user = yield* users.create({ email, password: PASSWORD })
      for (let i = 0; i < SIGN_IN_FAILURE_LIMIT; i++) yield* Effect.flip(signIn.withPassword(email, `wrong ${i}`, "203.0.113.77"))
      expect((yield* Effect.flip(signIn.withPassword(email, PASSWORD, "203.0.113.77")))._tag).toBe("RateLimited")
      expect((yield* users.unlock(user.id)).id).toBe(user.id)
      const after = yield* timed(signIn.withPassword(email, PASSWORD, "203.0.113.77"))
      expect(after.result.user.id).toBe(user.id)
      expect(after.ms).toBeLessThan(SIGN_IN_SLOW_DELAY_MS)
      expect(yield* Effect.flip(users.unlock("no-such-user"))).toMatchObject({ _tag: "ResourceNotFound" })
    }))
}
