import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./StorageError.js"

/**
 * Failed password sign-ins per normalized email, in the database so the limit
 * (domain/people/SignInLimit.ts) holds across processes. Emails are stored normalized
 * (`normalizeEmail`), known or not: an unknown email is limited like a known one.
 * SQL table: flagport_sign_in_failures.
 */
export interface SignInFailureRepositoryShape {
  /**
   * Records a failure for `normalizedEmail` at `at`, and forgets that email's failures at or
   * before `forgetUpTo` (outside any window that can still count them).
   */
  readonly record: (normalizedEmail: string, at: string, forgetUpTo: string) => Effect.Effect<void, StorageError>
  /** The times of the email's failures after `since`, oldest first. */
  readonly since: (normalizedEmail: string, since: string) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** Forgets every failure of the email (after a successful sign-in). */
  readonly clear: (normalizedEmail: string) => Effect.Effect<void, StorageError>
}

export class SignInFailureRepository extends Context.Tag("@flagport/ports/SignInFailureRepository")<
  SignInFailureRepository,
  SignInFailureRepositoryShape
>() {}
