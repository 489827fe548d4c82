import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import { DuplicateKey, StorageError } from "../../src/ports/StorageError.js"

/** Unique / primary key violations: PostgreSQL SQLSTATE 23505, SQLite SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. */
export const isUniqueViolation = (error: SqlError): boolean => {
  let cause: unknown = error.cause
  for (let depth = 0; depth < 5 && typeof cause === "object" && cause !== null; depth++) {
    const code = (cause as { code?: unknown }).code
    if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true
    cause = (cause as { cause?: unknown }).cause
  }
  return false
}

const describe = (error: SqlError): string => {
  const cause = error.cause
  const detail = cause instanceof Error ? cause.message : undefined
  return detail === undefined ? error.message : `${error.message}: ${detail}`
}

export const toStorageError = (error: SqlError): StorageError =>
  new StorageError({ message: describe(error), cause: error })

/** Any SQL failure becomes a StorageError. */
export const orFail = <A, R>(effect: Effect.Effect<A, SqlError, R>): Effect.Effect<A, StorageError, R> =>
  Effect.mapError(effect, toStorageError)

/** A unique violation becomes `DuplicateKey(entity, key)`, anything else a StorageError. */
export const orDuplicate =
  (entity: string, key: string) =>
  <A, R>(effect: Effect.Effect<A, SqlError, R>): Effect.Effect<A, DuplicateKey | StorageError, R> =>
    Effect.mapError(effect, (error) => (isUniqueViolation(error) ? new DuplicateKey({ entity, key }) : toStorageError(error)))

/** SQLite has no boolean type: 0/1 there, real booleans on PostgreSQL (both read back with `Boolean`). */
export const boolParam = (dialect: string, value: boolean): boolean | number => (dialect === "sqlite" ? (value ? 1 : 0) : value)
