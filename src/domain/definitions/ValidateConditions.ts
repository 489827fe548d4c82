/**
 * Validation of targeting conditions (rules and segments): every problem, with its JSON path.
 */
import * as Dates from "../conditions/Dates.js"
import type { Problem } from "../Errors.js"
import * as SafeRegex from "../conditions/SafeRegex.js"
import * as Semver from "../conditions/Semver.js"
import type { Condition, Operator } from "./Targeting.js"

type ValueCheck = (value: unknown) => string | undefined

const anyJson: ValueCheck = (value) => (isJson(value) ? undefined : "must be a JSON value")
const string: ValueCheck = (value) => (typeof value === "string" ? undefined : "must be a string")
const number: ValueCheck = (value) =>
  typeof value === "number" && Number.isFinite(value) ? undefined : "must be a finite number"
const date: ValueCheck = (value) =>
  !Number.isNaN(Dates.toEpochMillis(value)) ? undefined : "must be an ISO 8601 date string or epoch milliseconds"
const semver: ValueCheck = (value) => (Semver.isValid(value) ? undefined : "must be a semantic version (2.0.0), e.g. 1.4.0-beta.2")
const regex: ValueCheck = (value) => {
  if (typeof value !== "string") return "must be a string (a regular expression)"
  const problem = SafeRegex.check(value)
  return problem === undefined ? undefined : `regular expression refused: ${problem}`
}
const segmentKey: ValueCheck = (value) => (typeof value === "string" ? undefined : "must be a segment key (string)")

/** How each operator's `values` must look. `exists` takes none; segment operators take no attribute. */
const VALUE_CHECKS: Record<Operator, ValueCheck | null> = {
  in: anyJson,
  notIn: anyJson,
  contains: string,
  startsWith: string,
  endsWith: string,
  matches: regex,
  lt: number,
  lte: number,
  gt: number,
  gte: number,
  before: date,
  after: date,
  semverEq: semver,
  semverLt: semver,
  semverGt: semver,
  exists: null,
  inSegment: segmentKey,
  notInSegment: segmentKey
}

export const isSegmentOperator = (operator: string): boolean => operator === "inSegment" || operator === "notInSegment"

/** True for values that survive a JSON round trip unchanged (finite numbers, plain objects, arrays...). */
export const isJson = (value: unknown, depth = 0): boolean => {
  if (depth > 64) return false
  switch (typeof value) {
    case "string":
    case "boolean":
      return true
    case "number":
      return Number.isFinite(value)
    case "object":
      if (value === null) return true
      if (Array.isArray(value)) return value.every((v) => isJson(v, depth + 1))
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return false
      return Object.values(value).every((v) => isJson(v, depth + 1))
    default:
      return false
  }
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const validateCondition = (
  condition: Condition,
  path: string,
  segmentKeys: ReadonlySet<string> | null
): Array<Problem> => {
  const problems: Array<Problem> = []
  const problem = (p: string, message: string) => problems.push({ path: p, message })
  if (!isRecord(condition)) return [{ path, message: "must be an object" }]
  const operator = condition.operator as string
  const check = Object.prototype.hasOwnProperty.call(VALUE_CHECKS, operator) ? VALUE_CHECKS[operator as Operator] : undefined
  if (check === undefined) {
    problem(`${path}.operator`, `unknown operator ${JSON.stringify(operator)}`)
  }
  const segmentOp = isSegmentOperator(operator)
  if (segmentOp) {
    if (segmentKeys === null) problem(`${path}.operator`, "segments cannot reference segments")
    if (condition.attribute !== undefined) problem(`${path}.attribute`, `must be absent for ${operator}`)
  } else if (typeof condition.attribute !== "string" || condition.attribute.length === 0) {
    problem(`${path}.attribute`, "is required (a non-empty string)")
  } else if (condition.attribute.length > 256) {
    problem(`${path}.attribute`, "must be at most 256 characters")
  }
  if (condition.negate !== undefined && typeof condition.negate !== "boolean") problem(`${path}.negate`, "must be a boolean")
  const values: unknown = condition.values
  if (!Array.isArray(values)) {
    problem(`${path}.values`, "must be an array")
    return problems
  }
  if (operator === "exists") {
    if (values.length > 0) problem(`${path}.values`, "must be empty for exists")
    return problems
  }
  if (check === undefined) return problems
  if (values.length === 0) problem(`${path}.values`, "must contain at least one value")
  values.forEach((value, i) => {
    const message = check?.(value)
    if (message !== undefined) problem(`${path}.values[${i}]`, message)
    else if (segmentOp && segmentKeys !== null && !segmentKeys.has(value as string)) {
      problem(`${path}.values[${i}]`, `unknown segment ${JSON.stringify(value)}`)
    }
  })
  return problems
}

/** Conditions of a targeting rule: operators, values, regexes, versions, dates and segment references. */
export const validateConditions = (
  conditions: ReadonlyArray<Condition>,
  segmentKeys: ReadonlySet<string>,
  path = "conditions"
): ReadonlyArray<Problem> => {
  if (!Array.isArray(conditions)) return [{ path, message: "must be an array" }]
  return conditions.flatMap((c, i) => validateCondition(c, `${path}[${i}]`, segmentKeys))
}

/** Conditions of a segment: as for rules, but segment operators are refused (no segment in a segment). */
export const validateSegmentConditions = (
  conditions: ReadonlyArray<Condition>,
  path = "conditions"
): ReadonlyArray<Problem> => {
  if (!Array.isArray(conditions)) return [{ path, message: "must be an array" }]
  return conditions.flatMap((c, i) => validateCondition(c, `${path}[${i}]`, null))
}
