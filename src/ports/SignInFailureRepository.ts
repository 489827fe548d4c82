import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./StorageError.js"

/**
 * What `admit` answers: the attempt was counted (its row stays, as a failure, unless `clear` removes it),
 * or refused because the email already has `limit` failures or attempts from the client address in
 * the window (their times, oldest first; the refused attempt leaves no row).
 */
export type SignInAdmission =
  | { readonly _tag: "Admitted" }
  | { readonly _tag: "Refused"; readonly failures: ReadonlyArray<string> }

/**
 * Failed password sign-ins per normalized email and client address, in the database so the limits
 * (domain/people/SignInLimit.ts) hold across processes. Emails are stored normalized
 * (`normalizeEmail`), known or not: an unknown email is limited like a known one. The client
 * address is the one the HTTP adapter saw (behind trusted proxies, the one they report), or `""`
 * when none is known (a host calling the use case directly). SQL table: flagport_sign_in_failures.
 */
export interface SignInFailureRepositoryShape {
  /**
   * Records a failure for `normalizedEmail` from `client` at `at`, and forgets that email's
   * failures at or before `forgetUpTo` (outside any window that can still count them).
   */
  readonly record: (normalizedEmail: string, client: string, at: string, forgetUpTo: string) => Effect.Effect<void, StorageError>
  /**
   * Counts an attempt before its password is verified, atomically per email across processes (one
   * transaction: PostgreSQL takes a per-email lock, SQLite's write lock serializes it): forgets the
   * email's failures at or before `forgetUpTo`, then records the attempt at `at` as a failure
   * unless `limit` or more rows of the same email and `client` remain after `forgetUpTo`, in which
   * case it is refused and nothing is recorded. Of any number of simultaneous attempts from one
   * address, at most `limit` are admitted in a window.
   */
  readonly admit: (
    normalizedEmail: string,
    client: string,
    at: string,
    forgetUpTo: string,
    limit: number
  ) => Effect.Effect<SignInAdmission, StorageError>
  /** The times of the email's failures after `since` (from `client` only, when given), oldest first. */
  readonly since: (normalizedEmail: string, since: string, client?: string) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** How many failures the email has after `since`, from every address together. */
  readonly count: (normalizedEmail: string, since: string) => Effect.Effect<number, StorageError>
  /**
   * Deletes up to `limit` failures (of any email) at or before `upTo`, oldest first: those no
   * window counts any more (SignInFailureRetention.ts); answers how many went. Without it, the
   * rows of made-up emails, which no sign-in ever clears, would stay forever.
   */
  readonly prune: (upTo: string, limit: number) => Effect.Effect<number, StorageError>
  /**
   * Forgets the email's failures from `client` (after a successful sign-in from there), or from
   * every address when `client` is not given (a global admin's unlock).
   */
  readonly clear: (normalizedEmail: string, client?: string) => Effect.Effect<void, StorageError>
}

export class SignInFailureRepository extends Context.Tag("@flagport/ports/SignInFailureRepository")<
  SignInFailureRepository,
  SignInFailureRepositoryShape
>() {}
