/**
 * What a transfer checks before it writes (the source's schema level, an empty target, the two
 * schemas agreeing column by column) and after (row counts per table, every flag as the
 * repositories read it on each side).
 */
import * as Effect from "effect/Effect"
import { StorageError } from "../../../src/ports/StorageError.js"
import * as SqlFlagRepository from "../SqlFlagRepository.js"
import * as SqlProjectRepository from "../SqlProjectRepository.js"
import { migrations, MIGRATIONS_TABLE } from "../Migrations.js"
import { type ColumnKind, commonKind } from "./ColumnKinds.js"
import type { CopyPlan } from "./TableCopy.js"
import type { TransferDb } from "./TransferDb.js"
import { quote, type Table } from "./TransferSchema.js"

/**
 * Tables a migration fills by itself (0008 makes the stream-token secret): a freshly migrated
 * target holds these rows, and the copy replaces them with the source's (so stream tokens signed
 * before the move stay valid). test/adapters/Transfer*.test.ts checks that no other table is
 * filled by the migrations.
 */
export const SEEDED_BY_MIGRATIONS: ReadonlyArray<string> = ["flagport_stream_secret"]

/**
 * Tables triggers keep from other tables' rows (migrations/0032: the analyses' running totals): the
 * copy of those rows fills them on the target as it goes, so they are copied last, over what the
 * triggers made, as the source holds them (its totals summed in its own order, to the last bit).
 */
export const DERIVED_BY_TRIGGERS: ReadonlyArray<string> = ["flagport_analysis_metric_totals", "flagport_analysis_units"]

/** Whether a table exists on one side. */
export const hasTable = (db: TransferDb, name: string) =>
  Effect.map(
    db.dialect === "pg"
      ? db.query(`SELECT to_regclass(?) IS NOT NULL AS present`, [name])
      : db.query(`SELECT COUNT(*) AS present FROM sqlite_master WHERE type = 'table' AND name = ?`, [name]),
    (rows) => Boolean(Number(rows[0]?.present ?? 0)) || rows[0]?.present === true
  )

/** The migrations applied to a database, by number; empty when it has no bookkeeping table. */
export const appliedMigrations = (db: TransferDb) =>
  Effect.flatMap(hasTable(db, MIGRATIONS_TABLE), (present) =>
    present
      ? Effect.map(db.query(`SELECT migration_id FROM ${quote(MIGRATIONS_TABLE)} ORDER BY migration_id`), (rows) => rows.map((row) => Number(row.migration_id)))
      : Effect.succeed([] as Array<number>)
  )

/** The migrations this version of Flagport knows, by number. */
export const knownMigrations: ReadonlyArray<number> = Object.keys(migrations).map((key) => Number(key.slice(0, 4)))

export const countRows = (db: TransferDb, table: string) =>
  Effect.map(db.query(`SELECT COUNT(*) AS n FROM ${quote(table)}`), (rows) => Number(rows[0]?.n ?? 0))

/** Tables of the target that hold rows (the migrations' own rows aside), with their counts. */
export const occupiedTables = (db: TransferDb, tables: ReadonlyArray<Table>) =>
  Effect.map(
    Effect.forEach(
      tables.filter((table) => !SEEDED_BY_MIGRATIONS.includes(table.name)),
      (table) => Effect.map(countRows(db, table.name), (rows) => ({ table: table.name, rows }))
    ),
    (counts) => counts.filter((count) => count.rows > 0)
  )

/**
 * Pairs each target table with the source's: the same tables with the same columns, each column
 * of a kind both sides store (ColumnKinds.ts). Every disagreement is listed in one message.
 */
export const planCopy = (source: ReadonlyArray<Table>, target: ReadonlyArray<Table>): Effect.Effect<ReadonlyArray<CopyPlan>, StorageError> => {
  const problems: Array<string> = []
  const sourceByName = new Map(source.map((table) => [table.name, table]))
  for (const table of source) if (!target.some((t) => t.name === table.name)) problems.push(`table ${table.name} exists only on the source`)
  const plans = target.flatMap((table): Array<CopyPlan> => {
    const from = sourceByName.get(table.name)
    if (from === undefined) {
      problems.push(`table ${table.name} exists only on the target`)
      return []
    }
    const kinds = table.columns.map((column): ColumnKind | undefined => {
      const other = from.columns.find((c) => c.name === column.name)
      if (other === undefined) return void problems.push(`column ${table.name}.${column.name} exists only on the target`)
      const kind = column.kind !== undefined && other.kind !== undefined ? commonKind(other.kind, column.kind) : undefined
      if (kind === undefined) problems.push(`column ${table.name}.${column.name}: no conversion from ${other.declared} to ${column.declared}`)
      return kind
    })
    for (const column of from.columns) {
      if (!table.columns.some((c) => c.name === column.name)) problems.push(`column ${table.name}.${column.name} exists only on the source`)
    }
    return [{ table, kinds: kinds as Array<ColumnKind> }]
  })
  return problems.length === 0
    ? Effect.succeed(plans)
    : Effect.fail(new StorageError({ message: `The source's and the target's schemas differ: ${problems.join("; ")}` }))
}

/** Rows per table on each side. */
export interface TableCount {
  readonly table: string
  readonly source: number
  readonly target: number
}

export const compareCounts = (source: TransferDb, target: TransferDb, tables: ReadonlyArray<Table>) =>
  Effect.forEach(tables, (table) =>
    Effect.map(Effect.all([countRows(source, table.name), countRows(target, table.name)]), ([s, t]): TableCount => ({ table: table.name, source: s, target: t }))
  )

/** Every flag of every project, read by the flag repository on each side (`project/flag` keys of those that differ). */
export interface FlagComparison {
  readonly compared: number
  readonly differing: ReadonlyArray<string>
}

const flagsOf = (db: TransferDb) =>
  db.run(
    Effect.gen(function* () {
      const projects = yield* SqlProjectRepository.make
      const flags = yield* SqlFlagRepository.make
      const byKey = new Map<string, string>()
      for (const project of yield* db.run(projects.list())) {
        for (const flag of yield* db.run(flags.list(project.id))) byKey.set(`${project.id}/${flag.key}`, JSON.stringify(flag))
      }
      return byKey
    })
  )

export const compareFlags = (source: TransferDb, target: TransferDb) =>
  Effect.map(Effect.all([flagsOf(source), flagsOf(target)]), ([before, after]): FlagComparison => {
    const keys = [...new Set([...before.keys(), ...after.keys()])].sort()
    return { compared: before.size, differing: keys.filter((key) => before.get(key) !== after.get(key)) }
  })
