import { hash, verify } from "@node-rs/argon2"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PasswordHasher, type PasswordHasherShape } from "../../src/ports/PasswordHasher.js"

/**
 * Argon2id with OWASP's first recommended parameter set (19 MiB, 2 passes, 1 lane). The library
 * runs each hash on libuv's thread pool, so the event loop keeps serving meanwhile. Its default
 * algorithm is Argon2id (the const enum cannot be named under isolatedModules; the tests check the
 * `$argon2id$` prefix).
 */
export const PARAMETERS = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const

/**
 * A hash with exactly PARAMETERS of a random password that was thrown away: what an unknown email
 * is verified against (the same work as a known one, and it can never match).
 */
export const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$xuW6eYRXcQ1ZMGJNs2TFHg$BtXskRSlaGRaTSbaaVvWTdL+ACh2jVPO0dA3sRRXULY"

export const argon2PasswordHasher: PasswordHasherShape = {
  hash: (password) => Effect.promise(() => hash(password, PARAMETERS)),
  verify: (stored, password) =>
    Effect.promise(() =>
      verify(stored, password).then(
        (ok) => ok,
        // A malformed stored hash is a mismatch, never an error that would tell the caller more.
        () => false
      )
    ),
  dummyHash: DUMMY_HASH
}

export const layer: Layer.Layer<PasswordHasher> = Layer.succeed(PasswordHasher, argon2PasswordHasher)
