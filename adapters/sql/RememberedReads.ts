import * as Effect from "effect/Effect"
import type { StorageError } from "../../src/ports/StorageError.js"

/**
 * The last read of each scope (a project's environment) with what its rows decoded to. A snapshot
 * reload after a write reads every flag of the environment again, and all but the written ones
 * come back as they were: a row equal, column by column, to the one read last time gets the value
 * decoded then (same text, same value; values are read-only everywhere), and only the other rows
 * are decoded, so a malformed row is still found. Content is compared, never trusted: a row
 * changed by anyone (another process, a hand edit) is decoded again. docs/benchmarks.md has what
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
  readonly byIdentity: Map<unknown, { readonly row: Row; readonly value: A }>
  readonly chars: number
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

  const charsOf = (rows: ReadonlyArray<Row>) => {
    let total = 0
    for (const row of rows) {
      for (let i = 0; i < columns.length; i++) {
        const value = row[columns[i]!]
        if (typeof value === "string") total += value.length
      }
    }
    return total
  }

  const remember = (scope: string, rows: ReadonlyArray<Row>, values: ReadonlyArray<A>, unchanged: boolean) => {
    const previous = scopes.get(scope)
    if (previous !== undefined && unchanged && previous.byIdentity.size === rows.length) {
      // The very rows of last time: only their place in the order of reads moves.
      scopes.delete(scope)
      scopes.set(scope, previous)
      return
    }
    if (previous !== undefined) {
      scopes.delete(scope)
      chars -= previous.chars
    }
    const size = charsOf(rows)
    if (size > maxChars) return
    const byIdentity = new Map<unknown, { readonly row: Row; readonly value: A }>()
    for (let i = 0; i < rows.length; i++) byIdentity.set(identity(rows[i]!), { row: rows[i]!, value: values[i]! })
    for (const [oldest, remembered] of scopes) {
      if (chars + size <= maxChars) break
      scopes.delete(oldest)
      chars -= remembered.chars
    }
    scopes.set(scope, { byIdentity, chars: size })
    chars += size
  }

  /** `rows` of `scope` decoded, reusing the values of the rows equal to last time's. */
  return (scope: string, rows: ReadonlyArray<Row>): Effect.Effect<ReadonlyArray<A>, StorageError> => {
    const previous = scopes.get(scope)?.byIdentity
    const values: Array<A> = new Array<A>(rows.length)
    const changed: Array<Row> = []
    const changedAt: Array<number> = []
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!
      const known = previous?.get(identity(row))
      if (known !== undefined && sameRow(known.row, row)) values[i] = known.value
      else {
        changed.push(row)
        changedAt.push(i)
      }
    }
    const finish = (decoded: ReadonlyArray<A>) => {
      for (let j = 0; j < decoded.length; j++) values[changedAt[j]!] = decoded[j]!
      remember(scope, rows, values, changed.length === 0)
      return values
    }
    return changed.length === 0 ? Effect.sync(() => finish([])) : Effect.map(decode(changed), finish)
  }
}
