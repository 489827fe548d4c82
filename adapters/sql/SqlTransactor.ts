import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Transactor, withCommitHooks } from "../../src/ports/Transactor.js"
import { toStorageError } from "./SqlSupport.js"

/**
 * Transactions are @effect/sql's: the first `withTransaction` begins one on a reserved
 * connection that every query of the fiber then uses; a nested call is a SAVEPOINT.
 */
export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return Transactor.of(
    withCommitHooks(
      (self) =>
        sql.withTransaction(self).pipe(
          Effect.mapError((error) => (error instanceof SqlError ? toStorageError(error) : error))
        ) as never
    )
  )
})

export const layer = Layer.effect(Transactor, make)
