import * as Reactivity from "@effect/experimental/Reactivity"
import * as Client from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import * as Statement from "@effect/sql/Statement"
import { Context, Effect, Layer, Scope, Stream } from "effect"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqliteWorker from "./SqliteWorker.js"
import type { ExecuteMode } from "./WorkerProtocol.js"

const ATTR_DB_SYSTEM_NAME = "db.system.name"

/**
 * An @effect/sql `SqlClient` for SQLite whose one connection lives on a worker thread (see
 * SqliteWorker.ts): the same dialect, compiler and transaction statements as
 * @effect/sql-sqlite-node's client, but a query is a message to the worker and its answer
 * resumes the fiber, so the event loop keeps serving while SQLite reads, writes and fsyncs.
 *
 * One permit guards the connection, as in @effect/sql-sqlite-node: a transaction holds it from
 * BEGIN to COMMIT/ROLLBACK (nested `withTransaction` calls are SAVEPOINTs on the same
 * connection), and a statement outside a transaction takes it only to be sent, so it never lands
 * inside another fiber's transaction. The worker runs statements in the order they were sent.
 */
export const make = (options: SqliteWorker.Options): Effect.Effect<Client.SqlClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function* () {
    const worker = yield* SqliteWorker.make(options)

    const send = (sql: string, params: ReadonlyArray<unknown>, mode: ExecuteMode) =>
      Effect.withFiberRuntime<unknown, SqlError>((fiber) =>
        worker.execute(sql, params, mode, Context.get(fiber.currentContext, Client.SafeIntegers))
      )
    const rows = (sql: string, params: ReadonlyArray<unknown>, mode: ExecuteMode) =>
      send(sql, params, mode) as Effect.Effect<ReadonlyArray<any>, SqlError>

    const connection: Connection = {
      execute: (sql, params, transformRows) =>
        transformRows ? Effect.map(rows(sql, params, "rows"), transformRows) : rows(sql, params, "rows"),
      executeRaw: (sql, params) => send(sql, params, "raw"),
      executeValues: (sql, params) => rows(sql, params, "values") as Effect.Effect<ReadonlyArray<ReadonlyArray<unknown>>, SqlError>,
      executeUnprepared: (sql, params, transformRows) =>
        transformRows ? Effect.map(rows(sql, params ?? [], "unprepared"), transformRows) : rows(sql, params ?? [], "unprepared"),
      executeStream: () => Stream.dieMessage("executeStream not implemented")
    }

    const semaphore = yield* Effect.makeSemaphore(1)
    const acquirer = semaphore.withPermits(1)(Effect.succeed(connection))
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(
          restore(semaphore.take(1)),
          Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, semaphore.release(1)))
        ),
        connection
      )
    )

    return yield* Client.make({
      acquirer,
      compiler: Statement.makeCompilerSqlite(),
      transactionAcquirer,
      spanAttributes: [[ATTR_DB_SYSTEM_NAME, "sqlite"]]
    })
  })

/** The client as a layer: the worker starts when the layer is built and stops with its scope. */
export const layer = (options: SqliteWorker.Options): Layer.Layer<Client.SqlClient, SqlError> =>
  Layer.scoped(Client.SqlClient, make(options)).pipe(Layer.provide(Reactivity.layer))
