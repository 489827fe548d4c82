/**
 * Moving a whole server from one database to another (SQLite to PostgreSQL or back):
 * `flagport transfer --from URL --to URL`. Everything the server holds is copied, table by table
 * as the migrated schema reports them (adapters/sql/transfer/), into an empty target, in one
 * transaction on the target; the counts per table and every flag are compared before that
 * transaction commits, so a copy that differs is never left behind. The source is opened
 * read-only (SQLite) or in a read-only transaction (PostgreSQL), and read as one snapshot: writes
 * made to it during the copy are not in the copy.
 */
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { SqlClient } from "@effect/sql/SqlClient"
import { PgClient } from "@effect/sql-pg"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { StorageError } from "../../src/ports/StorageError.js"
import * as SqliteStorage from "../sql-sqlite/SqliteStorage.js"
import * as Migrations from "../sql/Migrations.js"
import { copyTable, type CopyPlan, DEFAULT_BATCH_ROWS } from "../sql/transfer/TableCopy.js"
import {
  appliedMigrations,
  compareCounts,
  compareFlags,
  type FlagComparison,
  knownMigrations,
  occupiedTables,
  planCopy,
  DERIVED_BY_TRIGGERS,
  SEEDED_BY_MIGRATIONS,
  type TableCount
} from "../sql/transfer/TransferChecks.js"
import * as TransferDb from "../sql/transfer/TransferDb.js"
import { describe, inDependencyOrder, quote } from "../sql/transfer/TransferSchema.js"
import { type DatabaseTarget, type InvalidDatabaseUrl, parseDatabaseUrl, redactUrl } from "./DatabaseUrl.js"
import { sqlClientFor, type SqlTarget } from "./Ports.js"

/** The transfer cannot start, and nothing was written (the message says why and what to do). */
export class TransferRefused extends Data.TaggedError("TransferRefused")<{ readonly message: string }> {}

/** The copy did not compare equal to the source; its transaction was rolled back. */
export class TransferMismatch extends Data.TaggedError("TransferMismatch")<{ readonly message: string; readonly report: TransferReport }> {}

export interface TransferOptions {
  readonly from: string
  readonly to: string
  /** Rows read and inserted per statement (default 500). */
  readonly batchRows?: number
  /** Told after each table is copied (the CLI shows progress with it). */
  readonly onTable?: (table: string, rows: number) => Effect.Effect<void>
  /**
   * Told once the copy's transaction has committed, before anything can interrupt the transfer
   * (the CLI says, when a signal stops it, whether the copy was committed).
   */
  readonly onCommitted?: (report: TransferReport) => Effect.Effect<void>
}

export interface TransferReport {
  /** The URLs, passwords hidden. */
  readonly from: string
  readonly to: string
  readonly tables: ReadonlyArray<TableCount>
  readonly flags: FlagComparison
}

export const isIdentical = (report: TransferReport): boolean =>
  report.tables.every((count) => count.source === count.target) && report.flags.differing.length === 0

const refuse = (message: string) => Effect.fail(new TransferRefused({ message }))

const sqlTarget = (url: string, role: "source" | "target"): Effect.Effect<SqlTarget, TransferRefused | InvalidDatabaseUrl> =>
  Either.match(parseDatabaseUrl(url), {
    onLeft: (error) => Effect.fail(error),
    onRight: (target: DatabaseTarget) =>
      target._tag === "Memory" || (target._tag === "Sqlite" && (target.filename === ":memory:" || target.filename === ""))
        ? refuse(`The ${role} ${redactUrl(url)} is an in-memory database: nothing outlives the process to copy ${role === "source" ? "from" : "to"}; give a sqlite: file or a postgres:// URL`)
        : Effect.succeed(target)
  })

/** Where a target's data lives, to tell whether --from and --to are one database. */
const identity = (target: SqlTarget) => {
  if (target._tag === "Sqlite") return `sqlite:${resolve(target.filename)}`
  const url = new URL(target.url)
  return `postgres://${url.hostname}:${url.port === "" ? "5432" : url.port}${url.pathname}`
}

const clientOf = <E>(layer: Layer.Layer<SqlClient, E>) =>
  Effect.map(Layer.build(layer), (context) => Context.get(context as Context.Context<SqlClient>, SqlClient))

/**
 * The source, opened so that it cannot be changed: SQLite read-only; PostgreSQL on one connection
 * (so every read is inside the one read-only snapshot below, kept however long the copy takes).
 */
const openSource = (target: SqlTarget): Effect.Effect<SqlClient, TransferRefused | StorageError, Scope.Scope> => {
  if (target._tag === "Sqlite") {
    if (!existsSync(target.filename)) return refuse(`The source SQLite database '${target.filename}' does not exist`)
    return clientOf(SqliteClient.layer({ filename: target.filename, readonly: true, disableWAL: true })).pipe(
      Effect.catchAllCause((cause) => Effect.fail(new StorageError({ message: `Cannot open SQLite database '${target.filename}' read-only`, cause })))
    )
  }
  return clientOf(
    PgClient.layer({
      url: Redacted.make(target.url),
      maxConnections: 1,
      idleTimeout: Duration.hours(24),
      connectTimeout: Duration.seconds(10),
      applicationName: "flagport-transfer"
    })
  ).pipe(Effect.mapError((cause) => new StorageError({ message: `Cannot connect to PostgreSQL at ${redactUrl(target.url)}: ${cause.message}`, cause })))
}

/** One consistent view of the source for the whole copy, rolled back (it wrote nothing) at the end. */
const snapshot = (source: TransferDb.TransferDb) =>
  Effect.acquireRelease(source.query(source.dialect === "pg" ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"), () =>
    Effect.ignore(source.query("ROLLBACK"))
  )

/** The source must be at exactly this version's schema: a copy between two schemas would guess. */
const checkSourceLevel = (source: TransferDb.TransferDb, url: string) =>
  Effect.gen(function* () {
    const applied = yield* appliedMigrations(source)
    if (applied.length === 0) return yield* refuse(`The source ${redactUrl(url)} holds no Flagport database (it has no ${Migrations.MIGRATIONS_TABLE} table)`)
    const unknown = applied.filter((id) => !knownMigrations.includes(id))
    if (unknown.length > 0) {
      return yield* refuse(`The source ${redactUrl(url)} was migrated by a newer Flagport (migration ${unknown.join(", ")} unknown here): run the transfer with that version`)
    }
    const missing = knownMigrations.filter((id) => !applied.includes(id))
    if (missing.length > 0) {
      return yield* refuse(
        `The source ${redactUrl(url)} is at an older schema (migration ${missing.join(", ")} not applied): run \`DATABASE_URL=<source> flagport migrate\` first, then transfer`
      )
    }
  })

const refuseOccupied = (url: string, occupied: ReadonlyArray<{ readonly table: string; readonly rows: number }>) =>
  refuse(
    `The target ${redactUrl(url)} is not empty (${occupied.map((o) => `${o.table}: ${o.rows} ${o.rows === 1 ? "row" : "rows"}`).join(", ")}): transfer writes only into an empty database, and wrote nothing`
  )

/**
 * Copies everything the server at `from` holds into the empty database at `to` (migrated first),
 * and compares the two before committing. The report lists the rows of each table on both sides
 * and the flags compared.
 */
export const transfer = (options: TransferOptions): Effect.Effect<TransferReport, TransferRefused | TransferMismatch | StorageError | InvalidDatabaseUrl> =>
  Effect.scoped(
    Effect.gen(function* () {
      const from = yield* sqlTarget(options.from, "source")
      const to = yield* sqlTarget(options.to, "target")
      if (identity(from) === identity(to)) return yield* refuse(`--from and --to name the same database (${redactUrl(options.to)})`)

      const source = TransferDb.make(yield* openSource(from), { apart: true })
      yield* snapshot(source)
      yield* checkSourceLevel(source, options.from)
      const sourceTables = yield* describe(source)

      const target = TransferDb.make(yield* clientOf(sqlClientFor(to, { modeWarning: false })), { apart: false })
      const before = yield* occupiedTables(target, yield* describe(target))
      if (before.length > 0) return yield* refuseOccupied(options.to, before)
      // The file is about to hold every secret of the server: its owner's alone, whatever mode it had.
      if (to._tag === "Sqlite") yield* SqliteStorage.restrictToOwner(to.filename)
      yield* target.run(Migrations.run)
      const plans = yield* planCopy(sourceTables, yield* Effect.flatMap(describe(target), inDependencyOrder))

      // The copy stays interruptible (rolled back); its commit and `onCommitted` do not part.
      return yield* Effect.uninterruptibleMask((restore) => target.client.withTransaction(restore(
        Effect.gen(function* () {
          const occupied = yield* occupiedTables(target, plans.map((plan) => plan.table))
          if (occupied.length > 0) return yield* refuseOccupied(options.to, occupied)
          for (const table of SEEDED_BY_MIGRATIONS) yield* target.query(`DELETE FROM ${quote(table)}`)
          const derived = (plan: CopyPlan) => DERIVED_BY_TRIGGERS.includes(plan.table.name)
          for (const plan of [...plans.filter((p) => !derived(p)), ...plans.filter(derived)]) {
            if (derived(plan)) yield* target.query(`DELETE FROM ${quote(plan.table.name)}`)
            const rows = yield* copyTable(source, target, plan, options.batchRows ?? DEFAULT_BATCH_ROWS)
            if (options.onTable !== undefined) yield* options.onTable(plan.table.name, rows)
          }
          const report: TransferReport = {
            from: redactUrl(options.from),
            to: redactUrl(options.to),
            tables: [...(yield* compareCounts(source, target, plans.map((plan) => plan.table)))].sort((a, b) => a.table.localeCompare(b.table)),
            flags: yield* compareFlags(source, target)
          }
          if (!isIdentical(report)) {
            return yield* new TransferMismatch({ message: "The copy does not compare equal to the source; nothing was written to the target", report })
          }
          return report
        })
      )).pipe(Effect.tap((report) => options.onCommitted?.(report) ?? Effect.void)))
        .pipe(Effect.mapError((error) => ("_tag" in error && error._tag === "SqlError" ? new StorageError({ message: error.message, cause: error }) : error)))
    })
  )
