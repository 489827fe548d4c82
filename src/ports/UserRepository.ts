import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Member } from "../domain/people/Member.js"
import type { Membership, Role } from "../domain/people/Role.js"
import type { User } from "../domain/people/User.js"
import type { DuplicateKey, NotFound, StorageError } from "./StorageError.js"

/**
 * People and their memberships (docs/guide/people.md). Emails are unique by their normalized form
 * (`normalizeEmail`: trimmed, lowercase), which the repository stores beside the address as typed.
 * Password hashes (Argon2id, PasswordHasher) are kept apart from the user record, so no read of a
 * user ever carries one. A membership is a user's role in one project; at most one per project.
 * SQL tables: flagport_users, flagport_memberships.
 */
export interface UserRepositoryShape {
  /** Stores a new user (no password yet). `DuplicateKey` when the id or the normalized email is taken. */
  readonly insert: (user: User) => Effect.Effect<void, DuplicateKey | StorageError>
  /** One user by id, if any. */
  readonly get: (id: string) => Effect.Effect<Option.Option<User>, StorageError>
  /** The user whose normalized email is `normalizedEmail` (pass `normalizeEmail(email)`), if any. */
  readonly findByEmail: (normalizedEmail: string) => Effect.Effect<Option.Option<User>, StorageError>
  /** Every user, disabled ones included, in creation order. */
  readonly list: () => Effect.Effect<ReadonlyArray<User>, StorageError>
  /**
   * Replaces the stored user with `user` (same id): email, name, admin, lastSignInAt, disabledAt,
   * sso. `NotFound` for an unknown id, `DuplicateKey` when the new email is another user's.
   */
  readonly update: (user: User) => Effect.Effect<void, NotFound | DuplicateKey | StorageError>
  /** The user's password hash, none when no password was ever set (invited, or single sign-on only). */
  readonly getPasswordHash: (id: string) => Effect.Effect<Option.Option<string>, StorageError>
  /** Sets (or replaces) the user's password hash; `null` removes it. `NotFound` for an unknown id. */
  readonly setPasswordHash: (id: string, hash: string | null) => Effect.Effect<void, NotFound | StorageError>
  /** The user's memberships, ordered by project id. */
  readonly membershipsOf: (userId: string) => Effect.Effect<ReadonlyArray<Membership>, StorageError>
  /** A project's members with their roles, in the order they were added. */
  readonly membersOf: (projectId: string) => Effect.Effect<ReadonlyArray<Member>, StorageError>
  /**
   * Gives the user `role` in `projectId`, replacing the role they had there (the membership keeps
   * its place). `NotFound` when the user or the project does not exist.
   */
  readonly putMembership: (userId: string, projectId: string, role: Role) => Effect.Effect<void, NotFound | StorageError>
  /**
   * Within a transaction, holds the user's row until it ends, so that two writes about one user's
   * memberships (two removals at the same moment, say) run one after the other and the second sees
   * the first (SQL: a write to the row that changes nothing, so PostgreSQL's row lock, SQLite's
   * write lock; memory's writes do not interleave).
   */
  readonly lockUser: (userId: string) => Effect.Effect<void, StorageError>
  /** Removes the user's membership of `projectId`; answers whether there was one. */
  readonly removeMembership: (userId: string, projectId: string) => Effect.Effect<boolean, StorageError>
  /** How many global administrators are not disabled. */
  readonly countAdmins: () => Effect.Effect<number, StorageError>
  /**
   * Within a transaction, holds the set of global administrators until it ends, so that two writes
   * that may each take one away (two admins demoting each other at the same moment) run one after
   * the other and the second counts what the first left (PostgreSQL: a transaction advisory lock,
   * taken before the write reads or writes a user; SQLite: its write lock, which every write
   * transaction holds from its start; memory's writes do not interleave).
   */
  readonly lockAdmins: () => Effect.Effect<void, StorageError>
}

export class UserRepository extends Context.Tag("@flagport/ports/UserRepository")<UserRepository, UserRepositoryShape>() {}
