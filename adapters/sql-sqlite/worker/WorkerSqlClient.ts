import * as Reactivity from "@effect/experimental/Reactivity"
import * as Client from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as SqliteWorker from "./SqliteWorker.js"
import type { ExecuteMode } from "./WorkerProtocol.js"

const ATTR_DB_SYSTEM_NAME = "db.system.name"

export interface Options {
  /** Path of the database file, or `:memory:`. */
  readonly filename: string
  readonly busyTimeoutMs: number
}

/** The transaction statements @effect/sql sends, recognised by the transaction's connection. */
const BEGIN = "BEGIN"
const COMMIT = "COMMIT"
const ROLLBACK = "ROLLBACK"

/**
 * How long a statement inside a transaction is awaited on the spot before its answer is left to the
 * event loop: a short block, far below one turn of a busy loop.
 */
const SYNC_WAIT_MS = 2

/**
 * A parameter this long (a round of ingestion's rows as one JSON text, SqlUnitMetrics.ts) makes a
 * bulk statement: it takes milliseconds in the worker, not microseconds, so it is not awaited on
 * the spot (measured, bench/ingestion.bench.ts: under a stream of ingestion the waits used their
 * whole budget, 10% of the event loop blocked, while the evaluation routes had requests waiting).
 */
const BULK_PARAMETER_CHARS = 16_384
const isBulk = (params: ReadonlyArray<unknown>): boolean => params.some((p) => typeof p === "string" && p.length >= BULK_PARAMETER_CHARS)

/** SQL texts whose routing is remembered; past it the memory starts over (it is only a shortcut). */
const ROUTES_REMEMBERED = 2_000

type Rows = ReadonlyArray<any>
type Transform = (<A extends object>(row: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

/** A private in-memory database exists only on its one connection: no second connection can read it. */
const hasReaderConnection = (filename: string) => filename !== ":memory:" && filename !== ""

/**
 * An @effect/sql `SqlClient` for SQLite whose connections live on worker threads (SqliteWorker.ts):
 * the same dialect, compiler and transaction statements as @effect/sql-sqlite-node's client, but
 * a query is a message to a thread and its answer resumes the fiber, so the event loop keeps
 * serving while SQLite reads, writes and fsyncs.
 *
 * - The writer connection runs every transaction and every statement that may write. One permit
 *   guards it, as in @effect/sql-sqlite-node: a transaction holds it from BEGIN to COMMIT or
 *   ROLLBACK (a nested `withTransaction` is a SAVEPOINT on the same connection), a statement
 *   outside a transaction holds it while it runs, so it never lands inside another transaction.
 *   Commits are grouped (WorkerBody.ts): a transaction gives the permit back once the worker has
 *   applied it, and its `withTransaction` returns once a group COMMIT (with its fsync) covers it,
 *   so a commit is acknowledged exactly when it is on disk, as with one fsync per commit.
 * - A read-only connection on its own thread answers queries outside transactions that SQLite
 *   reports read-only (`sqlite3_stmt_readonly` and returns rows): health checks, cache refreshes
 *   and key lookups do not queue behind writes and their fsyncs. WAL makes this safe: a read sees
 *   every transaction committed before it started, and never half of one. The first time a SQL
 *   text is seen the reader is asked; if it declines, the text goes to the writer from then on.
 */
export const make = (options: Options): Effect.Effect<Client.SqlClient, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function* () {
    const writer = yield* SqliteWorker.make({ filename: options.filename, role: "writer", busyTimeoutMs: options.busyTimeoutMs })
    const reader = hasReaderConnection(options.filename)
      ? yield* SqliteWorker.make({ filename: options.filename, role: "reader", busyTimeoutMs: options.busyTimeoutMs })
      : undefined
    const semaphore = yield* Effect.makeSemaphore(1)

    const safeIntegers = Effect.map(Effect.context<never>(), (context) => Context.get(context, Client.SafeIntegers))
    const statement = (sql: string, params: ReadonlyArray<unknown>, mode: ExecuteMode, onlyReadOnly: boolean) =>
      Effect.map(safeIntegers, (safe) => ({ sql, params, mode, safeIntegers: safe, onlyReadOnly }))

    /** SQL text -> whether the reader answers it (absent: not asked yet). */
    const readOnly = new Map<string, boolean>()

    const outsideTransaction = (sql: string, params: ReadonlyArray<unknown>, mode: ExecuteMode): Effect.Effect<unknown, SqlError> => {
      const viaWriter = semaphore.withPermits(1)(Effect.flatMap(statement(sql, params, mode, false), (s) => writer.execute(s, 0)))
      if (reader === undefined || mode === "unprepared" || readOnly.get(sql) === false) return viaWriter
      return Effect.flatMap(statement(sql, params, mode, true), (s) => reader.execute(s, 0)).pipe(
        Effect.flatMap((result) => {
          if (readOnly.size >= ROUTES_REMEMBERED) readOnly.clear()
          readOnly.set(sql, result !== SqliteWorker.Declined)
          return result === SqliteWorker.Declined ? viaWriter : Effect.succeed(result)
        })
      )
    }

    /**
     * The connection of one transaction, which holds the permit. Its statements are awaited on the
     * spot (SYNC_WAIT_MS, see SqliteWorker.call) so that it holds the writer briefly, except bulk
     * statements (BULK_PARAMETER_CHARS). COMMIT releases the permit as
     * soon as the worker has applied the transaction (released its savepoint), then waits for the
     * group's durable COMMIT: the next transaction runs meanwhile and joins the same fsync.
     */
    const transactionConnection = (release: () => Effect.Effect<void>) => {
      const run = (sql: string, params: ReadonlyArray<unknown>, mode: ExecuteMode): Effect.Effect<unknown, SqlError> => {
        if (sql === BEGIN) return writer.transaction("Begin", SYNC_WAIT_MS)
        if (sql === ROLLBACK) return writer.transaction("Rollback", SYNC_WAIT_MS)
        if (sql === COMMIT) return Effect.flatMap(writer.commit(SYNC_WAIT_MS), (isDurable) => Effect.zipRight(release(), isDurable))
        return Effect.flatMap(statement(sql, params, mode, false), (s) => writer.execute(s, isBulk(params) ? 0 : SYNC_WAIT_MS))
      }
      return connection(run)
    }

    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.gen(function* () {
        yield* restore(semaphore.take(1))
        let held = true
        // Once: by COMMIT (early) or when the transaction's scope closes.
        const release = () => Effect.suspend(() => (held ? ((held = false), semaphore.release(1)) : Effect.void))
        yield* Effect.tap(Effect.scope, (scope) => Scope.addFinalizer(scope, release()))
        return transactionConnection(release)
      })
    )

    return yield* Client.make({
      acquirer: Effect.succeed(connection(outsideTransaction)),
      compiler: Statement.makeCompilerSqlite(),
      transactionAcquirer,
      beginTransaction: BEGIN,
      commit: COMMIT,
      rollback: ROLLBACK,
      spanAttributes: [[ATTR_DB_SYSTEM_NAME, "sqlite"]]
    })
  })

/** A statement method for each @effect/sql `Connection` method, over one way to run SQL. */
const connection = (run: (sql: string, params: ReadonlyArray<unknown>, mode: ExecuteMode) => Effect.Effect<unknown, SqlError>): Connection => {
  const rows = (sql: string, params: ReadonlyArray<unknown>, mode: ExecuteMode, transform: Transform) => {
    const result = run(sql, params, mode) as Effect.Effect<Rows, SqlError>
    return transform ? Effect.map(result, transform) : result
  }
  return {
    execute: (sql, params, transform) => rows(sql, params, "rows", transform),
    executeRaw: (sql, params) => run(sql, params, "raw"),
    executeValues: (sql, params) => rows(sql, params, "values", undefined) as Effect.Effect<ReadonlyArray<ReadonlyArray<unknown>>, SqlError>,
    executeUnprepared: (sql, params, transform) => rows(sql, params ?? [], "unprepared", transform),
    executeStream: () => Stream.dieMessage("executeStream not implemented")
  }
}

/** The client as a layer: the threads start when the layer is built and stop with its scope. */
export const layer = (options: Options): Layer.Layer<Client.SqlClient, SqlError> =>
  Layer.scoped(Client.SqlClient, make(options)).pipe(Layer.provide(Reactivity.layer))
