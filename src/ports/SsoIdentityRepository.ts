import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { DuplicateKey, StorageError } from "./StorageError.js"

/**
 * Which account each single sign-on identity opens (docs/guide/people.md, "What happens at
 * sign-in"): an identity is the provider's issuer and the person's subject there (the ID token's
 * `iss` and `sub`), which the provider never gives to anyone else, unlike an email address. Linked
 * at an account's first single sign-on and matched by afterwards. SQL table: flagport_sso_identities.
 */
export interface SsoIdentityRepositoryShape {
  /** The id of the account the identity is linked to, if any. */
  readonly find: (issuer: string, subject: string) => Effect.Effect<Option.Option<string>, StorageError>
  /** Whether any identity was ever linked to the account. */
  readonly isLinked: (userId: string) => Effect.Effect<boolean, StorageError>
  /** Links the identity to the account at `at`. `DuplicateKey` when the identity is linked already (to any account). */
  readonly link: (issuer: string, subject: string, userId: string, at: string) => Effect.Effect<void, DuplicateKey | StorageError>
  /** Removes every identity linked to the account (before an allowed link gives it another). */
  readonly unlinkAll: (userId: string) => Effect.Effect<void, StorageError>
  /**
   * Allows the account's next single sign-on to link it by email until `expiresAt` (replacing an
   * earlier allowance). SQL table: flagport_sso_link_allowances.
   */
  readonly allowLink: (userId: string, allowedAt: string, expiresAt: string) => Effect.Effect<void, StorageError>
  /** Spends the account's allowance if it has one not expired at `now`: whether it had (of two at once, one spends it). */
  readonly spendAllowance: (userId: string, now: string) => Effect.Effect<boolean, StorageError>
}

export class SsoIdentityRepository extends Context.Tag("@flagport/ports/SsoIdentityRepository")<
  SsoIdentityRepository,
  SsoIdentityRepositoryShape
>() {}
