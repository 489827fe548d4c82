import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./StorageError.js"

/**
 * The key that signs stream tokens (src/domain/auth/StreamToken.ts). It lives in the database,
 * made once when the database is created or upgraded, so every process on one database signs and
 * verifies alike: a token issued by one server process opens a stream on any other.
 */
export interface StreamSecretShape {
  /** The secret's bytes (at least 32); the same on every call and in every process on one database. */
  readonly get: Effect.Effect<Uint8Array, StorageError>
}

export class StreamSecret extends Context.Tag("@flagport/ports/StreamSecret")<StreamSecret, StreamSecretShape>() {}
