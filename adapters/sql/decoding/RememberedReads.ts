import * as Effect from "effect/Effect"
import type { StorageError } from "../../../src/ports/StorageError.js"

/**
 * The last read of each scope (a project's environment) with what its rows decoded to. A snapshot
 * reload after a write reads every flag of the environment again, and all but the written ones
 * come back as they were: a row equal, column by column, to the one read last time gets the value
 * decoded then (same text, same value; values are read-only everywhere), and only the other rows
 * are decoded, so a malformed row is still found. Content is compared, never trusted: a row
 * changed by anyone (another process, a hand edit) is decoded again. docs/operations/benchmarks.md has what
 * it saves.
 */

type Row = Readonly<Record<string, unknown>>

export interface RememberedReadsOptions<A> {
  /** The columns that make up a row (all of them: a row is reused only when every one is equal). */
  readonly columns: ReadonlyArray<string>
  /** What identifies a row within its scope (its flag's key). */
  readonly identity: (row: Row) => unknown
  /** Decodes rows that were not remembered. */
  readonly decode: (rows: ReadonlyArray<Row>) => Effect.Effect<ReadonlyArray<A>, StorageError>
  /** Text kept over all scopes, in characters; the least recently read scopes are forgotten past it. */
  readonly maxChars: number
}

interface Remembered<A> {
  readonly rows: ReadonlyArray<Row>
  readonly values: ReadonlyArray<A>
  /** Each row's text, in characters, so that a reload counts only the rows it did not reuse. */
  readonly rowChars: Uint32Array
  readonly chars: number
  /** Each row's place by its identity, built only when a read finds rows out of last time's places. */
  byIdentity?: Map<unknown, number>
}

export const rememberedReads = <A>(options: RememberedReadsOptions<A>) => {
  const { columns, decode, identity, maxChars } = options
  // In the order of their last read (a Map keeps insertion order): the first is the one to forget.
  const scopes = new Map<string, Remembered<A>>()
  let chars = 0

  const sameRow = (a: Row, b: Row) => {
    for (let i = 0; i < columns.length; i++) if (a[columns[i]!] !== b[columns[i]!]) return false
    return true
  }

  const charsOfRow = (row: Row) => {
    let total = 0
    for (let i = 0; i < columns.length; i++) {
      const value = row[columns[i]!]
      if (typeof value === "string") total += value.length
    }
    return total
  }

  /** `rows` and `values` to remember; a row reused from `previous` (`places[i]`) keeps its count. */
  const remembered = (rows: ReadonlyArray<Row>, values: ReadonlyArray<A>, previous?: Remembered<A>, places?: Int32Array): Remembered<A> => {
    const rowChars = new Uint32Array(rows.length)
    let chars = 0
    for (let i = 0; i < rows.length; i++) {
      const place = places === undefined ? -1 : places[i]!
      const count = place >= 0 ? previous!.rowChars[place]! : charsOfRow(rows[i]!)
      rowChars[i] = count
      chars += count
    }
    return { rows, values, rowChars, chars }
  }

  /**
   * The place of last time's row equal to `row` (read at place `at` now), or -1. Rows come in a
   * stable order, so it is mostly the same place; a row of the same identity there that differs
   * is a changed row. Only a row of another identity (a flag added or removed before it) makes
   * the index by identity worth building.
   */
  const placeOf = (previous: Remembered<A>, row: Row, at: number): number => {
    const there = previous.rows[at]
    if (there !== undefined) {
      if (sameRow(there, row)) return at
      if (identity(there) === identity(row)) return -1
    }
    if (previous.byIdentity === undefined) {
      previous.byIdentity = new Map()
      for (let i = 0; i < previous.rows.length; i++) previous.byIdentity.set(identity(previous.rows[i]!), i)
    }
    const place = previous.byIdentity.get(identity(row))
    return place !== undefined && sameRow(previous.rows[place]!, row) ? place : -1
  }

  const remember = (scope: string, remembered: Remembered<A>) => {
    const previous = scopes.get(scope)
    if (previous !== undefined) {
      scopes.delete(scope)
      chars -= previous.chars
    }
    if (remembered.chars > maxChars) return
    for (const [oldest, forgotten] of scopes) {
      if (chars + remembered.chars <= maxChars) break
      scopes.delete(oldest)
      chars -= forgotten.chars
    }
    scopes.set(scope, remembered)
    chars += remembered.chars
  }

  /** `rows` of `scope` decoded, reusing the values of the rows equal to last time's. */
  return (scope: string, rows: ReadonlyArray<Row>): Effect.Effect<ReadonlyArray<A>, StorageError> => {
    const previous = scopes.get(scope)
    if (previous === undefined) {
      return Effect.map(decode(rows), (values) => {
        remember(scope, remembered(rows, values))
        return values
      })
    }
    const values: Array<A> = new Array<A>(rows.length)
    const places = new Int32Array(rows.length)
    const changed: Array<Row> = []
    const changedAt: Array<number> = []
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!
      const place = placeOf(previous, row, i)
      places[i] = place
      if (place >= 0) values[i] = previous.values[place]!
      else {
        changed.push(row)
        changedAt.push(i)
      }
    }
    if (changed.length === 0 && rows.length === previous.rows.length) {
      // The very rows of last time: only the scope's place in the order of reads moves.
      remember(scope, previous)
      return Effect.succeed(values)
    }
    return Effect.map(decode(changed), (decoded) => {
      for (let j = 0; j < decoded.length; j++) values[changedAt[j]!] = decoded[j]!
      remember(scope, remembered(rows, values, previous, places))
      return values
    })
  }
}
