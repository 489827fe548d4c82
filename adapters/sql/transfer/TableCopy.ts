/**
 * Copies one table from the source to the target in batches: rows are read in primary-key order a
 * batch at a time (keyset paging, so a large audit log is never held in memory whole, and no page
 * costs more than the one before), converted column by column (ColumnKinds.ts) and inserted with
 * one multi-row INSERT per batch. Then the table's auto-increment counter is set past every
 * copied id and past the source's own counter, so the target's next insert takes a fresh number.
 */
import * as Effect from "effect/Effect"
import { StorageError } from "../../../src/ports/StorageError.js"
import { type ColumnKind, convert, UnconvertibleValue } from "./ColumnKinds.js"
import type { Row, TransferDb } from "./TransferDb.js"
import { quote, type Table } from "./TransferSchema.js"

/** A table of the target with the kind of each of its columns (agreed with the source's). */
export interface CopyPlan {
  readonly table: Table
  readonly kinds: ReadonlyArray<ColumnKind>
}

/** Rows per batch: at most this many, and at most PARAMETERS_PER_BATCH bound values per INSERT. */
export const DEFAULT_BATCH_ROWS = 500
const PARAMETERS_PER_BATCH = 30_000

const placeholders = (count: number) => `(${Array.from({ length: count }, () => "?").join(", ")})`

/** `WHERE (a, b) > (?, ?)`: the next page after the last row's key. */
const after = (key: ReadonlyArray<string>) =>
  key.length === 1 ? `WHERE ${quote(key[0]!)} > ?` : `WHERE (${key.map(quote).join(", ")}) > ${placeholders(key.length)}`

const asBigInt = (value: unknown): bigint => (value === null || value === undefined ? 0n : BigInt(value as string | number | bigint))

/** The last number the source's counter handed out for `table` (0 when none). */
const sourceCounter = (source: TransferDb, table: Table, column: string) =>
  Effect.map(
    source.dialect === "pg"
      ? source.query(
          `SELECT s.last_value AS value FROM pg_sequences s
           WHERE (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass = pg_get_serial_sequence(?, ?)::regclass`,
          [table.name, column]
        )
      : source.query(`SELECT seq AS value FROM sqlite_sequence WHERE name = ?`, [table.name]),
    (rows) => asBigInt(rows[0]?.value)
  )

/** Sets the target's counter to `value` (the next insert gets value + 1). */
const setCounter = (target: TransferDb, table: Table, column: string, value: bigint) => {
  if (value <= 0n) return Effect.void
  if (target.dialect === "pg") return target.query(`SELECT setval(pg_get_serial_sequence(?, ?), ?, true)`, [table.name, column, value.toString()])
  return Effect.flatMap(target.query(`UPDATE sqlite_sequence SET seq = ? WHERE name = ?`, [Number(value), table.name]), () =>
    target.query(`INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)`, [
      table.name,
      Number(value),
      table.name
    ])
  )
}

/** Copies every row of `plan.table`; the number of rows copied. */
export const copyTable = (source: TransferDb, target: TransferDb, plan: CopyPlan, batchRows = DEFAULT_BATCH_ROWS) =>
  Effect.gen(function* () {
    const { kinds, table } = plan
    if (table.primaryKey.length === 0) {
      return yield* new StorageError({ message: `Table ${table.name} has no primary key: the transfer cannot read it in pages` })
    }
    const names = table.columns.map((column) => column.name)
    const size = Math.max(1, Math.min(batchRows, Math.floor(PARAMETERS_PER_BATCH / names.length)))
    const select = (first: boolean) =>
      `SELECT ${names.map(quote).join(", ")} FROM ${quote(table.name)} ${first ? "" : after(table.primaryKey)} ORDER BY ${table.primaryKey.map(quote).join(", ")} LIMIT ${size}`
    const insert = (rows: number) => `INSERT INTO ${quote(table.name)} (${names.map(quote).join(", ")}) VALUES ${Array.from({ length: rows }, () => placeholders(names.length)).join(", ")}`
    const counterIndex = table.counter === undefined ? -1 : names.indexOf(table.counter)

    const converted = (rows: ReadonlyArray<Row>) =>
      Effect.try({
        try: () => rows.flatMap((row) => names.map((name, i) => {
          try {
            return convert(kinds[i]!, row[name], target.dialect)
          } catch (error) {
            if (error instanceof UnconvertibleValue) throw new Error(`${table.name}.${name}: ${error.message}`)
            throw error
          }
        })),
        catch: (cause) => new StorageError({ message: `Cannot copy a row of ${table.name}: ${(cause as Error).message}`, cause })
      })

    let copied = 0
    let highest = 0n
    let last: Row | undefined
    for (;;) {
      const rows = yield* source.query(select(last === undefined), last === undefined ? [] : table.primaryKey.map((key) => last![key]))
      if (rows.length === 0) break
      yield* target.query(insert(rows.length), yield* converted(rows))
      copied += rows.length
      if (counterIndex >= 0) for (const row of rows) highest = asBigInt(row[table.counter!]) > highest ? asBigInt(row[table.counter!]) : highest
      last = rows[rows.length - 1]
      if (rows.length < size) break
    }
    if (table.counter !== undefined) {
      const counted = yield* sourceCounter(source, table, table.counter)
      yield* setCounter(target, table, table.counter, counted > highest ? counted : highest)
    }
    return copied
  })
