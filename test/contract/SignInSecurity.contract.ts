import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SetupTokenRepository } from "../../src/ports/SetupTokenRepository.js"
import { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { prune } from "../../src/services/people/SignInFailureRetention.js"
import { type Contract, freshProjectId } from "./Backend.js"

/**
 * What keeps sign-in cheap and bounded in storage: setup tokens looked up without being spent,
 * and failed sign-ins deleted once no window counts them.
 */

/** Tests share one database: each uses its own ids and emails. */
const fresh = () => freshProjectId().slice(2)

/** Times far before any other suite's, so a prune up to them touches only this suite's rows. */
const OLD = (day: number) => `2001-01-${String(day).padStart(2, "0")}T00:00:00.000Z`

export const signInSecurityContract: Contract = (it) => {
  it.effect("find: a token's user while it is valid, without spending it; none once expired, spent or unknown", () =>
    Effect.gen(function* () {
      const tokens = yield* SetupTokenRepository
      const id = `u-${fresh()}`
      yield* (yield* UserRepository).insert({
        id, email: `${id}@example.com`, name: "", admin: false, createdAt: OLD(1), lastSignInAt: null, disabledAt: null, sso: false
      })
      const hash = `h-${fresh()}`
      yield* tokens.insert({ hash, userId: id, createdAt: OLD(1), expiresAt: OLD(10) })
      expect(yield* tokens.find(hash, OLD(9))).toEqual(Option.some(id))
      expect(yield* tokens.find(hash, OLD(9))).toEqual(Option.some(id)) // not spent by looking
      expect(yield* tokens.find(hash, OLD(10))).toEqual(Option.none()) // expired at OLD(10)
      expect(yield* tokens.find("unknown", OLD(1))).toEqual(Option.none())
      expect(yield* tokens.spend(hash, OLD(9))).toEqual(Option.some(id))
      expect(yield* tokens.find(hash, OLD(9))).toEqual(Option.none())
    }))

  it.effect("prune: deletes failures at or before a time, of every email, oldest first, a batch at a time", () =>
    Effect.gen(function* () {
      const failures = yield* SignInFailureRepository
      const a = `prune.a.${fresh()}@example.com`
      const b = `prune.b.${fresh()}@example.com`
      for (const day of [1, 3, 5]) yield* failures.record(a, "", OLD(day), "2000-01-01T00:00:00.000Z")
      for (const day of [2, 4, 6]) yield* failures.record(b, "", OLD(day), "2000-01-01T00:00:00.000Z")
      // Up to day 5: five rows go, two then three; day 6 stays.
      expect(yield* failures.prune(OLD(5), 2)).toBe(2)
      expect(yield* failures.since(a, "2000-01-01T00:00:00.000Z")).toEqual([OLD(3), OLD(5)])
      expect(yield* failures.since(b, "2000-01-01T00:00:00.000Z")).toEqual([OLD(4), OLD(6)])
      expect(yield* failures.prune(OLD(5), 10)).toBe(3)
      expect(yield* failures.since(a, "2000-01-01T00:00:00.000Z")).toEqual([])
      expect(yield* failures.since(b, "2000-01-01T00:00:00.000Z")).toEqual([OLD(6)])
    }))

  it.effect("the retention run deletes every failure older than the window, in batches, and keeps recent ones", () =>
    Effect.gen(function* () {
      const failures = yield* SignInFailureRepository
      const made = `made.up.${fresh()}@example.com`
      for (let i = 0; i < 7; i++) yield* failures.record(made, "", OLD(7), "2000-01-01T00:00:00.000Z")
      const recent = new Date(Date.now() - 60_000).toISOString()
      yield* failures.record(made, "", recent, "2000-01-01T00:00:00.000Z")
      expect(yield* prune(3)).toBeGreaterThanOrEqual(7)
      expect(yield* failures.since(made, "2000-01-01T00:00:00.000Z")).toEqual([recent])
    }))
}
