import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { ApiKey } from "../domain/auth/ApiKey.js"
import type { DuplicateKey, NotFound, StorageError } from "./StorageError.js"

/**
 * API keys are stored by the SHA-256 hash (lowercase hex) of the whole secret; the secret itself
 * never reaches a repository.
 */
export interface ApiKeyRepositoryShape {
  /** Stores a key record with the hash of its secret. Fails with `DuplicateKey` on a hash or id collision. */
  readonly insert: (apiKey: ApiKey, hash: string) => Effect.Effect<void, DuplicateKey | StorageError>
  /** Every key, revoked ones included, in creation order. */
  readonly list: () => Effect.Effect<ReadonlyArray<ApiKey>, StorageError>
  /** One key by id, if any. */
  readonly get: (id: string) => Effect.Effect<Option.Option<ApiKey>, StorageError>
  /** The keys `userId` made (`createdBy`) that are not revoked, in creation order. */
  readonly liveMadeBy: (userId: string) => Effect.Effect<ReadonlyArray<ApiKey>, StorageError>
  /** The key whose secret hashes to `hash`, revoked or not, if any. */
  readonly findByHash: (hash: string) => Effect.Effect<Option.Option<ApiKey>, StorageError>
  /**
   * Marks a key revoked at `at`; revoking an already revoked key keeps the first time.
   * Fails with `NotFound` when the id is unknown.
   */
  readonly revoke: (id: string, at: string) => Effect.Effect<void, NotFound | StorageError>
  /**
   * Records that a live key was used at `at`; answers whether it was live (false for an unknown or
   * revoked key, which is left as it is). The answer is as new as the write, which may have waited
   * for another process's lock: newer than a read made before it.
   */
  readonly touch: (id: string, at: string) => Effect.Effect<boolean, StorageError>
}

export class ApiKeyRepository extends Context.Tag("@flagport/ports/ApiKeyRepository")<
  ApiKeyRepository,
  ApiKeyRepositoryShape
>() {}
