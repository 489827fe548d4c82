/**
 * How each kind of column is stored on each backend, and how a value moves from one to the other
 * (the migrations' conventions, adapters/sql/migrations/0001_core.ts):
 * - text (JSON documents and ISO 8601 timestamps included) is TEXT on both;
 * - integers are INTEGER / BIGINT (BIGSERIAL) on PostgreSQL, which node-postgres answers as a
 *   string of digits for BIGINT, and INTEGER on SQLite;
 * - doubles (experiments' sums) are DOUBLE PRECISION on both (REAL affinity on SQLite);
 * - booleans are BOOLEAN on PostgreSQL and 0/1 INTEGER on SQLite.
 * A column whose declared type is in none of these rows stops the transfer with its name, rather
 * than being copied by guess: a migration that brings a new type adds a row here.
 */
export type Dialect = "pg" | "sqlite"

export type ColumnKind = "text" | "integer" | "real" | "boolean"

/** Declared types (PostgreSQL's `information_schema.columns.data_type`, SQLite's declared type, upper-cased) per kind. */
const DECLARED: Record<ColumnKind, Record<Dialect, ReadonlyArray<string>>> = {
  text: { pg: ["text", "character varying"], sqlite: ["TEXT"] },
  integer: { pg: ["integer", "bigint", "smallint"], sqlite: ["INTEGER", "BIGINT"] },
  real: { pg: ["double precision"], sqlite: ["DOUBLE PRECISION", "REAL"] },
  boolean: { pg: ["boolean"], sqlite: [] }
}

/** The kind a backend's declared type stands for, or undefined for a type this table does not know. */
export const kindOfDeclared = (dialect: Dialect, declared: string): ColumnKind | undefined => {
  const type = dialect === "sqlite" ? declared.toUpperCase() : declared
  return (Object.keys(DECLARED) as Array<ColumnKind>).find((kind) => DECLARED[kind][dialect].includes(type))
}

/**
 * The kind of a column given its kind on each side: the same kind, or a boolean on one side held
 * as an integer on SQLite on the other. Anything else is no conversion (undefined).
 */
export const commonKind = (source: ColumnKind, target: ColumnKind): ColumnKind | undefined => {
  if (source === target) return source
  if ((source === "boolean" && target === "integer") || (source === "integer" && target === "boolean")) return "boolean"
  return undefined
}

/** A value that does not fit its column's kind (a broken row on the source). */
export class UnconvertibleValue extends Error {}

const describeValue = (value: unknown) => `${typeof value} ${JSON.stringify(typeof value === "bigint" ? String(value) : value)}`

/** An integer as the drivers take it: a number when exact, else a bigint (SQLite) or digits (PostgreSQL). */
const toInteger = (value: unknown, target: Dialect): number | bigint | string => {
  const big =
    typeof value === "bigint"
      ? value
      : typeof value === "number" && Number.isInteger(value)
        ? BigInt(value)
        : typeof value === "string" && /^-?\d+$/.test(value)
          ? BigInt(value)
          : undefined
  if (big === undefined) throw new UnconvertibleValue(`expected an integer, found ${describeValue(value)}`)
  if (big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(big)
  return target === "sqlite" ? big : big.toString()
}

const toBoolean = (value: unknown): boolean => {
  if (typeof value === "boolean") return value
  if (value === 0 || value === 1 || value === 0n || value === 1n) return value === 1 || value === 1n
  throw new UnconvertibleValue(`expected a boolean (or 0/1), found ${describeValue(value)}`)
}

/** A source value, as the target's driver binds it for a column of `kind`. NULL stays NULL. */
export const convert = (kind: ColumnKind, value: unknown, target: Dialect): unknown => {
  if (value === null || value === undefined) return null
  switch (kind) {
    case "text":
      if (typeof value !== "string") throw new UnconvertibleValue(`expected text, found ${describeValue(value)}`)
      return value
    case "integer":
      return toInteger(value, target)
    case "real":
      if (typeof value !== "number" || !Number.isFinite(value)) throw new UnconvertibleValue(`expected a finite number, found ${describeValue(value)}`)
      return value
    case "boolean": {
      const flag = toBoolean(value)
      return target === "sqlite" ? (flag ? 1 : 0) : flag
    }
  }
}
