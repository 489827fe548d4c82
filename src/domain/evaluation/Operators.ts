/**
 * The contract's condition operators, in one table.
 *
 * Each operator declares the operand kind it understands (`operand`), how its values are
 * prepared once, at compile time (`prepare`), and its comparison (`code`). One wrapper,
 * `testAttribute`, applies the shared rules: an attribute value of the wrong kind for the
 * operator does not match (never an error), and an array attribute matches when any element
 * does. Absent attributes and `negate` are handled by the evaluator, which knows whether the
 * attribute is present; segment operators need the snapshot's segments and live there too.
 *
 * Why integer codes and a switch rather than a function per operator: calls through a table of
 * closures were megamorphic call sites that V8 cannot inline; a switch over the operand kind
 * calling small typed comparisons is monomorphic (measured: see docs/benchmarks.md).
 */
import * as Dates from "../conditions/Dates.js"
import * as SafeRegex from "../conditions/SafeRegex.js"
import * as Semver from "../conditions/Semver.js"
import type { Operator } from "../definitions/Targeting.js"

// Operand kinds: what an attribute value must be for the operator to look at it.
const ANY = 0
const STRING = 1
const NUMBER = 2
const DATE = 3
const SEMVER = 4

// Comparisons.
const IN = 0
const NOT_IN = 1
const CONTAINS = 2
const STARTS_WITH = 3
const ENDS_WITH = 4
const MATCHES = 5
const LT = 6
const LTE = 7
const GT = 8
const GTE = 9
const SEMVER_EQ = 10
const SEMVER_LT = 11
const SEMVER_GT = 12
const EXISTS = 13

export interface OperatorDef {
  readonly operand: number
  readonly code: number
  /** Compile-time preparation of the condition's values; values of the wrong type are dropped (they never match). */
  readonly prepare: (values: ReadonlyArray<unknown>) => unknown
  /** `exists` looks at the whole value: an array is present even when empty. */
  readonly wholeValue: boolean
}

// --- value preparation (compile time) ----------------------------------------------------------
const strings = (values: ReadonlyArray<unknown>): Array<string> => values.filter((v): v is string => typeof v === "string")
const numbers = (values: ReadonlyArray<unknown>): Array<number> =>
  values.filter((v): v is number => typeof v === "number" && Number.isFinite(v))
const dates = (values: ReadonlyArray<unknown>): Array<number> =>
  values.map(Dates.toEpochMillis).filter((t) => !Number.isNaN(t))
const versions = (values: ReadonlyArray<unknown>): Array<Semver.Semver> =>
  values.map(Semver.parse).filter((v): v is Semver.Semver => v !== undefined)
const regexes = (values: ReadonlyArray<unknown>): Array<SafeRegex.SafeRegex> =>
  strings(values).flatMap((p) => {
    try {
      return [SafeRegex.compile(p)]
    } catch {
      return []
    }
  })

/** Strict JSON equality: primitives in a Set (so `"1"` is not `1`), objects and arrays compared deeply. */
export interface JsonSet {
  readonly primitives: ReadonlySet<unknown>
  /** The string values when there are few (a scan beats hashing for a handful); null otherwise. */
  readonly fewStrings: ReadonlyArray<string> | null
  readonly composites: ReadonlyArray<object>
}

const FEW = 8
const fewStrings = (values: ReadonlyArray<unknown>): ReadonlyArray<string> | null => {
  const unique = [...new Set(strings(values))]
  return unique.length <= FEW ? unique : null
}

/** Whether a string is one of the set's values. */
const hasString = (s: JsonSet, v: string): boolean => {
  const few = s.fewStrings
  if (few === null) return s.primitives.has(v)
  for (let i = 0; i < few.length; i++) if (few[i] === v) return true
  return false
}

const jsonSet = (values: ReadonlyArray<unknown>): JsonSet => ({
  primitives: new Set(values.filter((v) => typeof v !== "object" || v === null)),
  fewStrings: fewStrings(values),
  composites: values.filter((v): v is object => typeof v === "object" && v !== null)
})

export const jsonEquals = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i])) return false
    return true
  }
  if (Array.isArray(b)) return false
  const ak = Object.keys(a)
  if (ak.length !== Object.keys(b).length) return false
  for (const k of ak) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false
    if (!jsonEquals((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false
  }
  return true
}

const inSet = (v: unknown, s: JsonSet): boolean => {
  if (typeof v === "string") return hasString(s, v)
  if (typeof v !== "object" || v === null) return s.primitives.has(v)
  for (let i = 0; i < s.composites.length; i++) if (jsonEquals(v, s.composites[i])) return true
  return false
}

const def = (operand: number, code: number, prepare: (values: ReadonlyArray<unknown>) => unknown, wholeValue = false): OperatorDef => ({
  operand,
  code,
  prepare,
  wholeValue
})

/** The contract's operator table (segment operators excepted, see the module comment). */
export const OPERATORS: Readonly<Record<Exclude<Operator, "inSegment" | "notInSegment">, OperatorDef>> = {
  in: def(ANY, IN, jsonSet),
  notIn: def(ANY, NOT_IN, jsonSet),
  contains: def(STRING, CONTAINS, strings),
  startsWith: def(STRING, STARTS_WITH, strings),
  endsWith: def(STRING, ENDS_WITH, strings),
  matches: def(STRING, MATCHES, regexes),
  lt: def(NUMBER, LT, numbers),
  lte: def(NUMBER, LTE, numbers),
  gt: def(NUMBER, GT, numbers),
  gte: def(NUMBER, GTE, numbers),
  before: def(DATE, LT, dates),
  after: def(DATE, GT, dates),
  semverEq: def(SEMVER, SEMVER_EQ, versions),
  semverLt: def(SEMVER, SEMVER_LT, versions),
  semverGt: def(SEMVER, SEMVER_GT, versions),
  exists: def(ANY, EXISTS, () => null, true)
}

export const isAttributeOperator = (operator: unknown): operator is keyof typeof OPERATORS =>
  typeof operator === "string" && Object.prototype.hasOwnProperty.call(OPERATORS, operator)

// Comparisons by operand kind, each small enough for V8 to inline; loops are written out (no closure per call).
const compareAny = (code: number, v: unknown, prepared: unknown): boolean =>
  code === IN ? inSet(v, prepared as JsonSet) : code === NOT_IN ? !inSet(v, prepared as JsonSet) : code === EXISTS

const compareStrings = (code: number, v: string, prepared: unknown): boolean => {
  if (code === MATCHES) {
    const rs = prepared as ReadonlyArray<SafeRegex.SafeRegex>
    for (let i = 0; i < rs.length; i++) if (rs[i]!.test(v)) return true
    return false
  }
  const values = prepared as ReadonlyArray<string>
  for (let i = 0; i < values.length; i++) {
    const s = values[i]!
    if (code === ENDS_WITH ? v.endsWith(s) : code === STARTS_WITH ? v.startsWith(s) : v.includes(s)) return true
  }
  return false
}

const compareNumbers = (code: number, v: number, values: ReadonlyArray<number>): boolean => {
  for (let i = 0; i < values.length; i++) {
    const n = values[i]!
    if (code === LT ? v < n : code === LTE ? v <= n : code === GT ? v > n : v >= n) return true
  }
  return false
}

const compareVersions = (code: number, v: Semver.Semver, values: ReadonlyArray<Semver.Semver>): boolean => {
  const want = code === SEMVER_EQ ? 0 : code === SEMVER_LT ? -1 : 1
  for (let i = 0; i < values.length; i++) if (Semver.compare(v, values[i]!) === want) return true
  return false
}

/** One (non-array) attribute value: a value of the wrong kind for the operator does not match. */
const testOne = (op: OperatorDef, value: unknown, prepared: unknown): boolean => {
  switch (op.operand) {
    case ANY:
      return compareAny(op.code, value, prepared)
    case STRING:
      return typeof value === "string" && compareStrings(op.code, value, prepared)
    case NUMBER:
      return typeof value === "number" && Number.isFinite(value) && compareNumbers(op.code, value, prepared as ReadonlyArray<number>)
    case DATE: {
      const t = Dates.toEpochMillis(value)
      return !Number.isNaN(t) && compareNumbers(op.code, t, prepared as ReadonlyArray<number>)
    }
    default: {
      const v = Semver.parse(value)
      return v !== undefined && compareVersions(op.code, v, prepared as ReadonlyArray<Semver.Semver>)
    }
  }
}

/**
 * True when a *string* attribute value can skip the wrapper: the operator reads strings as they
 * are (`in`, `notIn` and the string operators), so `testString` gives the same answer as
 * `testAttribute` for any string. Date and semver operators parse strings and take the wrapper.
 */
export const hasStringShortcut = (op: OperatorDef): boolean =>
  op.operand === STRING || op.code === IN || op.code === NOT_IN

/**
 * `testAttribute` for a string value of an operator with `hasStringShortcut`. Strings are by far
 * the most common attribute values; going straight to the comparison saves the array check and
 * the operand dispatch on the evaluator's hot path. A Set of the primitive values answers `in`
 * exactly for a string (no composite value equals one).
 */
export const testString = (op: OperatorDef, value: string, prepared: unknown): boolean => {
  const code = op.code
  if (code === IN) return hasString(prepared as JsonSet, value)
  if (code === NOT_IN) return !hasString(prepared as JsonSet, value)
  return compareStrings(code, value, prepared)
}

/**
 * The one wrapper: a present attribute value against an operator and its prepared values.
 * A value of the wrong kind does not match; an array matches when any element does.
 */
export const testAttribute = (op: OperatorDef, value: unknown, prepared: unknown): boolean => {
  if (op.wholeValue || !Array.isArray(value)) return testOne(op, value, prepared)
  for (let i = 0; i < value.length; i++) if (testOne(op, value[i], prepared)) return true
  return false
}
