/**
 * The schema as the database itself reports it (not as a list kept by hand): Flagport's tables
 * (`flagport_*`, the migrations' bookkeeping aside), their columns with declared types, primary
 * keys, the tables each references, and the auto-increment counter where there is one. A copy
 * driven by this survives future migrations: a new table or column is found, not forgotten.
 */
import * as Effect from "effect/Effect"
import { StorageError } from "../../../src/ports/StorageError.js"
import { MIGRATIONS_TABLE } from "../Migrations.js"
import { type ColumnKind, kindOfDeclared } from "./ColumnKinds.js"
import type { Row, TransferDb } from "./TransferDb.js"

export interface Column {
  readonly name: string
  readonly declared: string
  readonly kind: ColumnKind | undefined
}

export interface Table {
  readonly name: string
  readonly columns: ReadonlyArray<Column>
  readonly primaryKey: ReadonlyArray<string>
  /** Other tables this one's foreign keys point to (they are filled first). */
  readonly references: ReadonlyArray<string>
  /** The column an auto-increment counter (BIGSERIAL / AUTOINCREMENT) fills, if any. */
  readonly counter: string | undefined
}

/** Our tables' names: a prefix, so the kit may share a database with its host's own tables. */
const OURS = "flagport\\_%"
/** Names this module puts into SQL text: only what the schema reports, and only of this shape. */
const SAFE_NAME = /^[a-z_][a-z0-9_]*$/

export const quote = (name: string) => {
  if (!SAFE_NAME.test(name)) throw new Error(`unexpected name in the schema: ${JSON.stringify(name)}`)
  return `"${name}"`
}

const text = (row: Row, column: string) => String(row[column])

const groupBy = (rows: ReadonlyArray<Row>, key: string) => {
  const groups = new Map<string, Array<Row>>()
  for (const row of rows) {
    const name = text(row, key)
    groups.set(name, [...(groups.get(name) ?? []), row])
  }
  return groups
}

const describePg = (db: TransferDb) =>
  Effect.gen(function* () {
    const columns = yield* db.query(
      `SELECT c.table_name, c.column_name, c.data_type, c.column_default
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name LIKE '${OURS}' ESCAPE '\\'
       ORDER BY c.table_name, c.ordinal_position`
    )
    const keys = yield* db.query(
      `SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name, c.contype AS kind,
              c.confrelid::regclass::text AS referenced
       FROM pg_constraint c
       LEFT JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k(attnum, n) ON c.contype = 'p'
       LEFT JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
       WHERE c.connamespace = current_schema()::regnamespace AND c.contype IN ('p', 'f')
       ORDER BY 1, k.n`
    )
    const keysOf = groupBy(keys, "table_name")
    return [...groupBy(columns, "table_name")].map(([name, rows]): Table => {
      const constraints = keysOf.get(name) ?? []
      return {
        name,
        columns: rows.map((row) => ({ name: text(row, "column_name"), declared: text(row, "data_type"), kind: kindOfDeclared("pg", text(row, "data_type")) })),
        primaryKey: constraints.filter((row) => row.kind === "p").map((row) => text(row, "column_name")),
        references: [...new Set(constraints.filter((row) => row.kind === "f").map((row) => text(row, "referenced")))],
        counter: rows.find((row) => String(row.column_default ?? "").startsWith("nextval("))?.column_name as string | undefined
      }
    })
  })

const describeSqlite = (db: TransferDb) =>
  Effect.gen(function* () {
    const tables = yield* db.query(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE '${OURS}' ESCAPE '\\' ORDER BY name`)
    return yield* Effect.forEach(tables, (table) =>
      Effect.gen(function* () {
        const name = text(table, "name")
        const columns = yield* db.query(`SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid`, [name])
        const references = yield* db.query(`SELECT DISTINCT "table" AS referenced FROM pragma_foreign_key_list(?)`, [name])
        const primaryKey = columns.filter((row) => Number(row.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((row) => text(row, "name"))
        return {
          name,
          columns: columns.map((row) => ({ name: text(row, "name"), declared: text(row, "type"), kind: kindOfDeclared("sqlite", text(row, "type")) })),
          primaryKey,
          references: references.map((row) => text(row, "referenced")),
          counter: /\bAUTOINCREMENT\b/i.test(text(table, "sql")) && primaryKey.length === 1 ? primaryKey[0] : undefined
        } satisfies Table
      })
    )
  })

/** Every Flagport table of one side, the migrations' bookkeeping table excepted. */
export const describe = (db: TransferDb): Effect.Effect<ReadonlyArray<Table>, StorageError> =>
  Effect.map(db.dialect === "pg" ? describePg(db) : describeSqlite(db), (tables) => tables.filter((table) => table.name !== MIGRATIONS_TABLE))

/**
 * The tables in an order that fills every referenced table before the tables referring to it
 * (ties by name, so the order is the same on every run).
 */
export const inDependencyOrder = (tables: ReadonlyArray<Table>): Effect.Effect<ReadonlyArray<Table>, StorageError> => {
  const remaining = new Map(tables.map((table) => [table.name, table]))
  const ordered: Array<Table> = []
  while (remaining.size > 0) {
    const ready = [...remaining.values()]
      .filter((table) => table.references.every((name) => name === table.name || !remaining.has(name)))
      .sort((a, b) => a.name.localeCompare(b.name))
    if (ready.length === 0) {
      return Effect.fail(new StorageError({ message: `The tables ${[...remaining.keys()].join(", ")} reference each other in a cycle; the transfer cannot order them` }))
    }
    for (const table of ready) {
      ordered.push(table)
      remaining.delete(table.name)
    }
  }
  return Effect.succeed(ordered)
}
