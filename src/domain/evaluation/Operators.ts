/**
 * The condition operators' implementations. Which operators exist, and what values each takes, is
 * declared once in conditions/OperatorTable.ts; here each value kind gets its operand kind and
 * its compile-time preparation (`prepare`), and each attribute operator its comparison
 * (`COMPARISONS`, typed so that an operator without one, or with one of the wrong kind, does not
 * compile). One wrapper,
 * `testAttribute`, applies the shared rules: an attribute value of the wrong kind for the
 * operator does not match (never an error), and an array attribute matches when any element
 * does. Absent attributes and `negate` are handled by the evaluator, which knows whether the
 * attribute is present; segment operators need the snapshot's segments and live there too.
 *
 * Why integer codes and a switch rather than a function per operator: calls through a table of
 * closures were megamorphic call sites that V8 cannot inline; a switch over the operand kind
 * calling small typed comparisons is monomorphic (measured: see bench/LOG.md, Evaluator).
 */
import * as Dates from "../conditions/Dates.js"
import { type AttributeOperatorName, OPERATOR_TABLE, type ValueKind, type ValueKindOf } from "../conditions/OperatorTable.js"
import type { RegexEngine, Tester } from "../conditions/RegexEngine.js"
import * as Semver from "../conditions/Semver.js"
import * as StringSets from "../conditions/StringSets.js"

// Operand kinds: what an attribute value must be for the operator to look at it.
const ANY = 0
const STRING = 1
const NUMBER = 2
const DATE = 3
const SEMVER = 4
type Operand = typeof ANY | typeof STRING | typeof NUMBER | typeof DATE | typeof SEMVER

// Comparisons, grouped by the operand they compare.
const IN = 0
const NOT_IN = 1
const EXISTS = 13
type AnyComparison = typeof IN | typeof NOT_IN | typeof EXISTS
const CONTAINS = 2
const STARTS_WITH = 3
const ENDS_WITH = 4
const MATCHES = 5
type StringComparison = typeof CONTAINS | typeof STARTS_WITH | typeof ENDS_WITH | typeof MATCHES
const LT = 6
const LTE = 7
const GT = 8
const GTE = 9
type NumberComparison = typeof LT | typeof LTE | typeof GT | typeof GTE
const SEMVER_EQ = 10
const SEMVER_LT = 11
const SEMVER_GT = 12
type SemverComparison = typeof SEMVER_EQ | typeof SEMVER_LT | typeof SEMVER_GT
type Comparison = AnyComparison | StringComparison | NumberComparison | SemverComparison

/** Attribute operators only: segment operators have no value kind here (the evaluator resolves segments). */
type AttributeValueKind = ValueKindOf<AttributeOperatorName>

/** Which comparisons fit a value kind: dates compare as numbers (epoch milliseconds). */
type ComparisonFor<K extends ValueKind> = K extends "json" | "none"
  ? AnyComparison
  : K extends "string" | "regex"
    ? StringComparison
    : K extends "number" | "date"
      ? NumberComparison
      : K extends "semver"
        ? SemverComparison
        : never

/** A branch the types say cannot be reached; throws if the data says otherwise. */
const unreachable = (value: never): never => {
  throw new Error(`unreachable operator branch ${String(value)}`)
}

export interface OperatorDef {
  readonly operand: Operand
  readonly code: Comparison
  /**
   * Compile-time preparation of the condition's values; values of the wrong type are dropped (they
   * never match). `regex` compiles `matches` patterns (see conditions/RegexEngine.ts).
   */
  readonly prepare: (values: ReadonlyArray<unknown>, regex: RegexEngine) => unknown
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
/** All of a condition's patterns as one RE2 program: one linear pass per string (conditions/Re2.ts). */
const regexes = (values: ReadonlyArray<unknown>, regex: RegexEngine): Tester => regex.compile(strings(values))

/**
 * `startsWith` / `endsWith` values: a few are compared one by one (each comparison reads at most
 * the value's length, and W2's `endsWith` stays a plain loop); more become a trie
 * (conditions/StringSets.ts), so the cost per string never grows with the number of values.
 */
type AffixValues = ReadonlyArray<string> | StringSets.StringTest
const affixes =
  (build: (values: ReadonlyArray<string>) => StringSets.StringTest) =>
  (values: ReadonlyArray<unknown>): AffixValues => {
    const list = strings(values)
    return list.length <= FEW ? list : build(list)
  }

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

/** Each value kind: the operand kind it compares and how its values are prepared at compile time. */
const KINDS: { readonly [K in AttributeValueKind]: { readonly operand: Operand; readonly prepare: (values: ReadonlyArray<unknown>, regex: RegexEngine) => unknown } } = {
  json: { operand: ANY, prepare: jsonSet },
  string: { operand: STRING, prepare: strings },
  regex: { operand: STRING, prepare: regexes },
  number: { operand: NUMBER, prepare: numbers },
  date: { operand: DATE, prepare: dates },
  semver: { operand: SEMVER, prepare: versions },
  none: { operand: ANY, prepare: () => null }
}

/** Each attribute operator's comparison; the type ties it to the operator's value kind. */
const COMPARISONS: { readonly [K in AttributeOperatorName]: ComparisonFor<ValueKindOf<K>> } = {
  in: IN,
  notIn: NOT_IN,
  contains: CONTAINS,
  startsWith: STARTS_WITH,
  endsWith: ENDS_WITH,
  matches: MATCHES,
  lt: LT,
  lte: LTE,
  gt: GT,
  gte: GTE,
  before: LT,
  after: GT,
  semverEq: SEMVER_EQ,
  semverLt: SEMVER_LT,
  semverGt: SEMVER_GT,
  exists: EXISTS
}

/**
 * String comparisons whose values are prepared for their comparison rather than by value kind.
 * `contains` keeps the plain list: each `includes` is V8's Boyer-Moore-Horspool search, linear in
 * the string, and the limits keep values x characters small (docs/operations/operating.md).
 */
const STRING_PREPARATION: Partial<Record<Comparison, (values: ReadonlyArray<unknown>) => unknown>> = {
  [STARTS_WITH]: affixes(StringSets.anyPrefix),
  [ENDS_WITH]: affixes(StringSets.anySuffix)
}

const define = (name: AttributeOperatorName): OperatorDef => {
  const kind = KINDS[OPERATOR_TABLE[name].values]
  const code = COMPARISONS[name]
  // `exists` looks at the whole value: an array is present even when empty.
  return { operand: kind.operand, code, prepare: STRING_PREPARATION[code] ?? kind.prepare, wholeValue: code === EXISTS }
}

/** Every attribute operator, ready for the compiler (segment operators excepted, see the module comment). */
export const OPERATORS = Object.fromEntries(
  (Object.keys(COMPARISONS) as Array<AttributeOperatorName>).map((name) => [name, define(name)])
) as Readonly<Record<AttributeOperatorName, OperatorDef>>

// Comparisons by operand kind, each small enough for V8 to inline; loops are written out (no closure per call).
// Each switch names every comparison of its kind: a new one without a branch does not compile.
const compareAny = (code: AnyComparison, v: unknown, prepared: unknown): boolean => {
  switch (code) {
    case IN:
      return inSet(v, prepared as JsonSet)
    case NOT_IN:
      return !inSet(v, prepared as JsonSet)
    case EXISTS:
      return true
    default:
      return unreachable(code)
  }
}

const anyIncludes = (v: string, values: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < values.length; i++) if (v.includes(values[i]!)) return true
  return false
}
const anyStartsWith = (v: string, values: AffixValues): boolean => {
  if (typeof values === "function") return values(v)
  for (let i = 0; i < values.length; i++) if (v.startsWith(values[i]!)) return true
  return false
}
const anyEndsWith = (v: string, values: AffixValues): boolean => {
  if (typeof values === "function") return values(v)
  for (let i = 0; i < values.length; i++) if (v.endsWith(values[i]!)) return true
  return false
}

const compareStrings = (code: StringComparison, v: string, prepared: unknown): boolean => {
  switch (code) {
    case CONTAINS:
      return anyIncludes(v, prepared as ReadonlyArray<string>)
    case STARTS_WITH:
      return anyStartsWith(v, prepared as AffixValues)
    case ENDS_WITH:
      return anyEndsWith(v, prepared as AffixValues)
    case MATCHES:
      return (prepared as Tester)(v)
    default:
      return unreachable(code)
  }
}

const compareNumbers = (code: NumberComparison, v: number, values: ReadonlyArray<number>): boolean => {
  for (let i = 0; i < values.length; i++) {
    const n = values[i]!
    switch (code) {
      case LT:
        if (v < n) return true
        break
      case LTE:
        if (v <= n) return true
        break
      case GT:
        if (v > n) return true
        break
      case GTE:
        if (v >= n) return true
        break
      default:
        return unreachable(code)
    }
  }
  return false
}

/** The `Semver.compare` answer each comparison wants. */
const wantedOrder = (code: SemverComparison): number => {
  switch (code) {
    case SEMVER_EQ:
      return 0
    case SEMVER_LT:
      return -1
    case SEMVER_GT:
      return 1
    default:
      return unreachable(code)
  }
}

const compareVersions = (code: SemverComparison, v: Semver.Semver, values: ReadonlyArray<Semver.Semver>): boolean => {
  const want = wantedOrder(code)
  for (let i = 0; i < values.length; i++) if (Semver.compare(v, values[i]!) === want) return true
  return false
}

/** One (non-array) attribute value: a value of the wrong kind for the operator does not match. */
const testOne = (op: OperatorDef, value: unknown, prepared: unknown): boolean => {
  switch (op.operand) {
    case ANY:
      return compareAny(op.code as AnyComparison, value, prepared)
    case STRING:
      return typeof value === "string" && compareStrings(op.code as StringComparison, value, prepared)
    case NUMBER:
      return (
        typeof value === "number" &&
        Number.isFinite(value) &&
        compareNumbers(op.code as NumberComparison, value, prepared as ReadonlyArray<number>)
      )
    case DATE: {
      const t = Dates.toEpochMillis(value)
      return !Number.isNaN(t) && compareNumbers(op.code as NumberComparison, t, prepared as ReadonlyArray<number>)
    }
    case SEMVER: {
      const v = Semver.parse(value)
      return v !== undefined && compareVersions(op.code as SemverComparison, v, prepared as ReadonlyArray<Semver.Semver>)
    }
    default:
      return unreachable(op.operand)
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
  return compareStrings(code as StringComparison, value, prepared)
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
