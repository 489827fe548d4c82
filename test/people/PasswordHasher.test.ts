import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { argon2PasswordHasher, DUMMY_HASH, PARAMETERS } from "../../adapters/crypto/Argon2PasswordHasher.js"

const PHC_PREFIX = `$argon2id$v=19$m=${PARAMETERS.memoryCost},t=${PARAMETERS.timeCost},p=${PARAMETERS.parallelism}$`

describe("Argon2id password hasher", () => {
  it.effect("hashes with Argon2id and the OWASP parameters, a fresh salt each time, and verifies", () =>
    Effect.gen(function* () {
      const first = yield* argon2PasswordHasher.hash("correct horse battery staple")
      const second = yield* argon2PasswordHasher.hash("correct horse battery staple")
      expect(first.startsWith(PHC_PREFIX)).toBe(true)
      expect(first).not.toBe(second)
      expect(yield* argon2PasswordHasher.verify(first, "correct horse battery staple")).toBe(true)
      expect(yield* argon2PasswordHasher.verify(second, "correct horse battery staple")).toBe(true)
      expect(yield* argon2PasswordHasher.verify(first, "correct horse battery stapl")).toBe(false)
    }))

  it.effect("a malformed stored hash is a mismatch, not a failure", () =>
    Effect.gen(function* () {
      expect(yield* argon2PasswordHasher.verify("not a hash", "whatever")).toBe(false)
      expect(yield* argon2PasswordHasher.verify("", "")).toBe(false)
    }))

  it.effect("the dummy hash has the same parameters (the same work) and matches nothing a person types", () =>
    Effect.gen(function* () {
      expect(DUMMY_HASH.startsWith(PHC_PREFIX)).toBe(true)
      expect(argon2PasswordHasher.dummyHash).toBe(DUMMY_HASH)
      for (const guess of ["", "password", "correct horse battery staple", "admin@localhost"]) {
        expect(yield* argon2PasswordHasher.verify(DUMMY_HASH, guess)).toBe(false)
      }
    }))

  it("hashing does not block the event loop: a timer fires while hashes run", async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    await Effect.runPromise(Effect.all(Array.from({ length: 8 }, () => argon2PasswordHasher.hash("x".repeat(64))), { concurrency: "unbounded" }))
    clearInterval(timer)
    expect(ticks).toBeGreaterThan(0)
  })
})
