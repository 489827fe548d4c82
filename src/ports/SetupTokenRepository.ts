import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { DuplicateKey, StorageError } from "./StorageError.js"

/** A one-time setup token (an invitation or a password reset) as stored: by the SHA-256 hash of the token. */
export interface StoredSetupToken {
  readonly hash: string
  readonly userId: string
  readonly createdAt: string
  readonly expiresAt: string
}

/**
 * One-time setup tokens (docs/guide/people.md, 72 h, usable once). SQL table: flagport_setup_tokens.
 */
export interface SetupTokenRepositoryShape {
  /** Stores a new token. `DuplicateKey` on a hash collision (256 random bits: a bug). */
  readonly insert: (token: StoredSetupToken) => Effect.Effect<void, DuplicateKey | StorageError>
  /**
   * The user of the token whose hash is `hash` if it expires after `at`, without spending it: a
   * setup looks its token up before it hashes the new password, so a made-up token costs no
   * hashing. `spend` still decides (the token may be spent in between).
   */
  readonly find: (hash: string, at: string) => Effect.Effect<Option.Option<string>, StorageError>
  /**
   * Spends the token whose hash is `hash` if it expires after `at`: removes it and answers its
   * user. Atomic: of two spends of one token at the same moment (two processes included), exactly
   * one gets the user; the other, like an unknown, spent or expired token, gets none.
   */
  readonly spend: (hash: string, at: string) => Effect.Effect<Option.Option<string>, StorageError>
  /** Removes every token of the user (a new link, or a disabled user, voids the earlier ones); answers how many. */
  readonly deleteForUser: (userId: string) => Effect.Effect<number, StorageError>
}

export class SetupTokenRepository extends Context.Tag("@flagport/ports/SetupTokenRepository")<
  SetupTokenRepository,
  SetupTokenRepositoryShape
>() {}
