import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Transactor, withCommitHooks } from "../../src/ports/Transactor.js"
import * as GroupCommit from "./GroupCommit.js"
import { toStorageError } from "./SqlSupport.js"

/**
 * Transactions are @effect/sql's: the first `withTransaction` begins one on a reserved
 * connection that every query of the fiber then uses; a nested call is a SAVEPOINT.
 * On SQLite, `withGroupedTransaction` commits the writes of one project that arrive together in
 * one transaction (GroupCommit.ts); elsewhere it is `withTransaction`.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // On SQLite, where one connection takes every write in turn: measured faster (bench/targeting-writes.bench.ts).
  // On PostgreSQL a write's statements are round trips whatever their transaction, and grouping
  // them did not raise its throughput there (docs/operations/benchmarks.md): each write commits alone.
  const grouped = sql.onDialectOrElse({ sqlite: () => true, orElse: () => false }) ? yield* GroupCommit.make : undefined
  return Transactor.of(
    withCommitHooks(
      (self) =>
        sql.withTransaction(self).pipe(
          Effect.mapError((error) => (error instanceof SqlError ? toStorageError(error) : error))
        ) as never,
      grouped
    )
  )
})

export const layer = Layer.scoped(Transactor, make)
