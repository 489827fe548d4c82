/**
 * Start-up work that must run in one process at a time: schema migrations and the first start's
 * seeding. Replicas of one deployment start together on one empty PostgreSQL database; without a
 * lock two of them create the same table at once and one fails (`duplicate key value violates
 * unique constraint "pg_type_typname_nsp_index"`: @effect/sql's migrator checks for its table and
 * then creates it, and its own table lock comes only after that).
 *
 * On PostgreSQL the work runs under a session advisory lock, held on one connection reserved from
 * the pool for the purpose (the work itself uses the pool's other connections): the others wait
 * for it, then find the work done. The lock goes with that connection if the process dies.
 * Elsewhere the work runs as it is: SQLite's writer lock and busy timeout serialise processes on
 * one file, and memory has no other process.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { StorageError } from "../../src/ports/StorageError.js"

/** The advisory lock's key: "flagport" in ASCII, as a bigint (any constant would do; this one reads). */
const LOCK_KEY = "7380993562283077236"

const lockFailed = (cause: unknown) => new StorageError({ message: "Cannot take the start-up lock on PostgreSQL", cause })

/**
 * `effect`, run while this process holds the start-up lock (PostgreSQL), else as it is. The
 * SqlClient is looked up rather than required, so callers over any storage (memory included) can
 * use it alike.
 */
export const exclusively = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StorageError, R> =>
  Effect.flatMap(Effect.serviceOption(SqlClient), (client) =>
    Option.match(client, {
      onNone: () => effect,
      onSome: (sql) =>
        sql.onDialectOrElse({
          pg: () =>
            Effect.scoped(
              Effect.gen(function* () {
                const connection = yield* Effect.mapError(sql.reserve, lockFailed)
                yield* Effect.acquireRelease(
                  Effect.mapError(connection.executeRaw(`SELECT pg_advisory_lock(${LOCK_KEY})`, []), lockFailed),
                  () => Effect.ignore(connection.executeRaw(`SELECT pg_advisory_unlock(${LOCK_KEY})`, []))
                )
                return yield* effect
              })
            ),
          orElse: () => effect
        })
    })
  )
