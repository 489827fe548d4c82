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
}

export class SsoIdentityRepository extends Context.Tag("@flagport/ports/SsoIdentityRepository")<
  SsoIdentityRepository,
  SsoIdentityRepositoryShape
>() {}
