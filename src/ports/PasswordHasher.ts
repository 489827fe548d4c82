import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/**
 * Password hashing (Argon2id in adapters/crypto), behind a port so that src/ imports no native
 * module. Both operations run off the event loop: a sign-in must not stall other requests.
 */
export interface PasswordHasherShape {
  /** A self-describing hash (PHC string: algorithm, parameters, salt) of the password. */
  readonly hash: (password: string) => Effect.Effect<string>
  /** Whether `password` matches `hash`; false (never a failure) for a malformed hash. */
  readonly verify: (hash: string, password: string) => Effect.Effect<boolean>
  /**
   * A fixed hash made with the same parameters as `hash`, of a password nobody knows: a sign-in
   * with an unknown email verifies against it, so it takes as long as one with a known email.
   */
  readonly dummyHash: string
}

export class PasswordHasher extends Context.Tag("@flagport/ports/PasswordHasher")<PasswordHasher, PasswordHasherShape>() {}
