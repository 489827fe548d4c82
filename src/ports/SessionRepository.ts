import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { DuplicateKey, StorageError } from "./StorageError.js"

/**
 * A signed-in person's session as stored: by the SHA-256 hash (lowercase hex) of its token, which
 * itself never reaches a repository. Times are contract timestamps; `expiresAt` is the absolute end.
 */
export interface StoredSession {
  readonly hash: string
  readonly userId: string
  readonly createdAt: string
  readonly lastSeenAt: string
  readonly expiresAt: string
}

/**
 * Sessions in the database, so every process sees a sign-out at once (each request looks its
 * session up). SQL table: flagport_sessions.
 */
export interface SessionRepositoryShape {
  /** Stores a new session. `DuplicateKey` on a hash collision (256 random bits: a bug). */
  readonly insert: (session: StoredSession) => Effect.Effect<void, DuplicateKey | StorageError>
  /** The session whose token hashes to `hash`, if any (expired ones too: the caller judges). */
  readonly find: (hash: string) => Effect.Effect<Option.Option<StoredSession>, StorageError>
  /** Sets `lastSeenAt`; nothing happens for an unknown hash. */
  readonly touch: (hash: string, at: string) => Effect.Effect<void, StorageError>
  /** Deletes one session; nothing happens for an unknown hash. */
  readonly delete: (hash: string) => Effect.Effect<void, StorageError>
  /** Deletes every session of the user; answers how many there were. */
  readonly deleteForUser: (userId: string) => Effect.Effect<number, StorageError>
  /** Deletes the sessions whose absolute end is at or before `at` (housekeeping); answers how many. */
  readonly deleteExpired: (at: string) => Effect.Effect<number, StorageError>
}

export class SessionRepository extends Context.Tag("@flagport/ports/SessionRepository")<
  SessionRepository,
  SessionRepositoryShape
>() {}
