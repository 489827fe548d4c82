/**
 * The contract's condition operators, in one table.
 *
 * Each operator declares how its values are prepared once, at compile time (`prepare`),
 * how an attribute value is read as the operand type it understands (`coerce`), and the
 * comparison itself (`test`). One wrapper, `testAttribute`, applies the shared rules:
 * an operand of the wrong type does not match (never an error), and an array attribute
 * matches when any of its elements does. Absent attributes and `negate` are handled by the
 * evaluator, which knows whether the attribute is present. Segment operators need the
 * snapshot's segments and live in the evaluator too.
 */
import * as Dates from "./Dates.js"
import * as SafeRegex from "./SafeRegex.js"
import * as Semver from "./Semver.js"
import type { Operator } from "./Targeting.js"

/** Returned by `coerce` when the attribute value has the wrong type for the operator. */
export const NO_MATCH: unique symbol = Symbol("NO_MATCH")

export interface OperatorDef<Operand, Prepared> {
  /** Compile-time preparation of the condition's values; values of the wrong type are dropped (they never match). */
  readonly prepare: (values: ReadonlyArray<unknown>) => Prepared
  /** The attribute value as this operator's operand, or NO_MATCH. */
  readonly coerce: (value: unknown) => Operand | typeof NO_MATCH
  readonly test: (operand: Operand, prepared: Prepared) => boolean
  /** `exists` looks at the whole value: an array is present even when empty. */
  readonly wholeValue?: boolean
}

const define = <Operand, Prepared>(def: OperatorDef<Operand, Prepared>): OperatorDef<unknown, unknown> =>
  def as unknown as OperatorDef<unknown, unknown>

// --- operand readers -------------------------------------------------------------------------
const asString = (v: unknown): string | typeof NO_MATCH => (typeof v === "string" ? v : NO_MATCH)
const asNumber = (v: unknown): number | typeof NO_MATCH => (typeof v === "number" && Number.isFinite(v) ? v : NO_MATCH)
const asDate = (v: unknown): number | typeof NO_MATCH => {
  const t = Dates.toEpochMillis(v)
  return Number.isNaN(t) ? NO_MATCH : t
}
const asSemver = (v: unknown): Semver.Semver | typeof NO_MATCH => Semver.parse(v) ?? NO_MATCH
const asAny = (v: unknown): unknown => v

// --- value preparation -----------------------------------------------------------------------
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
  readonly composites: ReadonlyArray<object>
}

const jsonSet = (values: ReadonlyArray<unknown>): JsonSet => ({
  primitives: new Set(values.filter((v) => typeof v !== "object" || v === null)),
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
  if (typeof v !== "object" || v === null) return s.primitives.has(v)
  for (let i = 0; i < s.composites.length; i++) if (jsonEquals(v, s.composites[i])) return true
  return false
}

// --- "any value" loops, written out so that no closure is created per evaluation ----------------
const STR_CONTAINS = 0
const STR_STARTS = 1
const STR_ENDS = 2
const stringAny = (v: string, values: ReadonlyArray<string>, mode: number): boolean => {
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!
    if (mode === STR_CONTAINS ? v.includes(x) : mode === STR_STARTS ? v.startsWith(x) : v.endsWith(x)) return true
  }
  return false
}

const CMP_LT = 0
const CMP_LTE = 1
const CMP_GT = 2
const CMP_GTE = 3
const numberAny = (v: number, values: ReadonlyArray<number>, mode: number): boolean => {
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!
    if (mode === CMP_LT ? v < x : mode === CMP_LTE ? v <= x : mode === CMP_GT ? v > x : v >= x) return true
  }
  return false
}

const semverAny = (v: Semver.Semver, values: ReadonlyArray<Semver.Semver>, want: number): boolean => {
  for (let i = 0; i < values.length; i++) if (Semver.compare(v, values[i]!) === want) return true
  return false
}

/** The contract's operator table (segment operators excepted, see the module comment). */
export const OPERATORS: Readonly<Record<Exclude<Operator, "inSegment" | "notInSegment">, OperatorDef<unknown, unknown>>> = {
  in: define({ prepare: jsonSet, coerce: asAny, test: (v, s) => inSet(v, s) }),
  notIn: define({ prepare: jsonSet, coerce: asAny, test: (v, s) => !inSet(v, s) }),
  contains: define({ prepare: strings, coerce: asString, test: (v, vs) => stringAny(v, vs, STR_CONTAINS) }),
  startsWith: define({ prepare: strings, coerce: asString, test: (v, vs) => stringAny(v, vs, STR_STARTS) }),
  endsWith: define({ prepare: strings, coerce: asString, test: (v, vs) => stringAny(v, vs, STR_ENDS) }),
  matches: define({
    prepare: regexes,
    coerce: asString,
    test: (v, rs) => {
      for (let i = 0; i < rs.length; i++) if (rs[i]!.test(v)) return true
      return false
    }
  }),
  lt: define({ prepare: numbers, coerce: asNumber, test: (v, ns) => numberAny(v, ns, CMP_LT) }),
  lte: define({ prepare: numbers, coerce: asNumber, test: (v, ns) => numberAny(v, ns, CMP_LTE) }),
  gt: define({ prepare: numbers, coerce: asNumber, test: (v, ns) => numberAny(v, ns, CMP_GT) }),
  gte: define({ prepare: numbers, coerce: asNumber, test: (v, ns) => numberAny(v, ns, CMP_GTE) }),
  before: define({ prepare: dates, coerce: asDate, test: (v, ts) => numberAny(v, ts, CMP_LT) }),
  after: define({ prepare: dates, coerce: asDate, test: (v, ts) => numberAny(v, ts, CMP_GT) }),
  semverEq: define({ prepare: versions, coerce: asSemver, test: (v, vs) => semverAny(v, vs, 0) }),
  semverLt: define({ prepare: versions, coerce: asSemver, test: (v, vs) => semverAny(v, vs, -1) }),
  semverGt: define({ prepare: versions, coerce: asSemver, test: (v, vs) => semverAny(v, vs, 1) }),
  exists: define({ prepare: () => null, coerce: asAny, test: () => true, wholeValue: true })
}

export const isAttributeOperator = (operator: unknown): operator is keyof typeof OPERATORS =>
  typeof operator === "string" && Object.prototype.hasOwnProperty.call(OPERATORS, operator)

const testOne = (op: OperatorDef<unknown, unknown>, value: unknown, prepared: unknown): boolean => {
  const operand = op.coerce(value)
  return operand !== NO_MATCH && op.test(operand, prepared)
}

/**
 * The one wrapper: a present attribute value against an operator and its prepared values.
 * Wrong operand types do not match; an array matches when any element does.
 */
export const testAttribute = (op: OperatorDef<unknown, unknown>, value: unknown, prepared: unknown): boolean => {
  if (op.wholeValue === true || !Array.isArray(value)) return testOne(op, value, prepared)
  for (let i = 0; i < value.length; i++) if (testOne(op, value[i], prepared)) return true
  return false
}
