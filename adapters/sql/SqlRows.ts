import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { StorageError } from "../../src/ports/StorageError.js"
import { compile, Invalid } from "./decoding/CompiledDecoder.js"

/**
 * Rows decoded at the database's edge, as @effect/sql's `SqlSchema` does: every query names the
 * Schema of its result row (JSON columns with `Schema.parseJson` of the domain's schema), and a
 * row that does not match is a StorageError naming the table, the column and the path inside it.
 * Rows are decoded by the schema compiled to plain functions (decoding/CompiledDecoder.ts); Effect's
 * decoder runs only to describe a row that does not match.
 */

/** A boolean column: SQLite has no boolean type and answers 0 or 1; PostgreSQL answers booleans. */
export const SqlBoolean = Schema.Union(
  Schema.Boolean,
  Schema.transform(Schema.Literal(0, 1), Schema.Boolean, { strict: true, decode: (n) => n === 1, encode: (b) => (b ? 1 : 0) })
)

/** An integer column: PostgreSQL answers BIGINT (and BIGSERIAL) as a string of digits. */
export const SqlInteger = Schema.Union(Schema.Int, Schema.compose(Schema.NumberFromString, Schema.Int))

/** A RETURNING id row. */
export const IdRow = Schema.Struct({ id: Schema.String })

/** "[0].conditions[1].operator" for a path inside a column. */
const pathText = (path: ReadonlyArray<PropertyKey>) =>
  path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("")

/** The row's own key or id, when it has one, to find it by. */
const rowName = (row: unknown): string => {
  if (typeof row !== "object" || row === null) return ""
  const name = "key" in row && typeof row.key === "string" ? row.key : "id" in row && typeof row.id === "string" ? row.id : undefined
  return name === undefined ? "" : ` (row '${name}')`
}

const malformed = (rows: ReadonlyArray<unknown>, error: ParseResult.ParseError, table: (column: string) => string) => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  const [index, column, ...inside] = issue?.path ?? []
  const row = typeof index === "number" ? rows[index] : undefined
  const where = column === undefined ? "a row" : `${table(String(column))}${rowName(row)}, column ${String(column)}${pathText(inside)}`
  return new StorageError({ message: `Malformed row in the database: ${where}: ${issue?.message ?? error.message}`, cause: error })
}

/**
 * Decodes `rows` with `row`; `table` names the table the columns come from, and `joined` the
 * table of each column a join brought from elsewhere (for the error message).
 */
export const decodeRows = <A, I>(row: Schema.Schema<A, I>, table: string, joined: Readonly<Record<string, string>> = {}) => {
  const schema = Schema.Array(row)
  const fast = compile(schema)
  const decode = Schema.decodeUnknownEither(schema)
  const tableOf = (column: string) => joined[column] ?? table
  return (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>, StorageError> => {
    const value = fast(rows)
    if (value !== Invalid) return Effect.succeed(value)
    const decoded = decode(rows)
    return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(malformed(rows, decoded.left, tableOf))
  }
}
