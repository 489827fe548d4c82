/**
 * Validation of targeting conditions (rules and segments): every problem, with its JSON path.
 * A group (`{ "anyOf": [[...], ...] }`, Condition.ts) is one item of its rule's or segment's
 * conditions; its lists' conditions are checked as any other, at `conditions[i].anyOf[j][k]`.
 */
import * as Dates from "../conditions/Dates.js"
import { isOperatorName, isSegmentOperator, OPERATOR_TABLE, type ValueKind } from "../conditions/OperatorTable.js"
import * as Re2 from "../conditions/Re2.js"
import * as Semver from "../conditions/Semver.js"
import type { Problem } from "../Errors.js"
import { atMost, atMostLength, limit, type LimitName } from "../Limits.js"
import { isJson } from "./JsonValue.js"
import { type Condition, type ConditionOrGroup, isGroupShaped, NESTED_GROUP_MESSAGE } from "./Condition.js"

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
  const problem = Re2.syntaxProblem(value)
  return problem === undefined ? undefined : `regular expression refused (RE2 syntax): ${problem}`
}
const segmentKey: ValueCheck = (value) => (typeof value === "string" ? undefined : "must be a segment key (string)")

/** How each kind of value must look (OperatorTable.ts gives each operator's kind). `none` takes no values. */
const VALUE_CHECKS: Record<ValueKind, ValueCheck | null> = {
  json: anyJson,
  string,
  regex,
  number,
  date,
  semver,
  none: null,
  segmentKey
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Every string value of a condition is bounded, whatever its operator (Limits.conditionStringLength). */
const tooLong = (value: unknown): boolean => typeof value === "string" && value.length > limit("conditionStringLength")

/** The patterns of a `matches` condition, compiled together, must stay within Limits.regexSizePerCondition. */
const regexSizeProblem = (patterns: ReadonlyArray<string>): string | undefined => {
  const size = Re2.programSize(patterns)
  const max = limit("regexSizePerCondition")
  return size <= max
    ? undefined
    : `the regular expressions compile to ${size} RE2 instructions together, at most ${max.toLocaleString("en-US")}: use fewer or simpler patterns (e.g. smaller {n,m} bounds)`
}

/** The longest attribute name a condition (or a segment's `keyAttribute`) may read. */
export const ATTRIBUTE_NAME_MAX = 256

/** A problem when an array holds more than a limit allows. */
export const countProblem = (items: ReadonlyArray<unknown>, path: string, name: LimitName): Array<Problem> =>
  items.length > limit(name) ? [{ path, message: atMost(name) }] : []

const validateCondition = (
  condition: Condition,
  path: string,
  segmentKeys: ReadonlySet<string> | null
): Array<Problem> => {
  const problems: Array<Problem> = []
  const problem = (p: string, message: string) => problems.push({ path: p, message })
  if (!isRecord(condition)) return [{ path, message: "must be an object" }]
  const operator = condition.operator as string
  const kind = isOperatorName(operator) ? OPERATOR_TABLE[operator].values : undefined
  const check = kind === undefined ? undefined : VALUE_CHECKS[kind]
  if (kind === undefined) {
    problem(`${path}.operator`, `unknown operator ${JSON.stringify(operator)}`)
  }
  const segmentOp = isSegmentOperator(operator)
  if (segmentOp) {
    if (segmentKeys === null) problem(`${path}.operator`, "segments cannot reference segments")
    if (condition.attribute !== undefined) problem(`${path}.attribute`, `must be absent for ${operator}`)
  } else if (typeof condition.attribute !== "string" || condition.attribute.length === 0) {
    problem(`${path}.attribute`, "is required (a non-empty string)")
  } else if (condition.attribute.length > ATTRIBUTE_NAME_MAX) {
    problem(`${path}.attribute`, `must be at most ${ATTRIBUTE_NAME_MAX} characters`)
  }
  if (condition.negate !== undefined && typeof condition.negate !== "boolean") problem(`${path}.negate`, "must be a boolean")
  const values: unknown = condition.values
  if (!Array.isArray(values)) {
    problem(`${path}.values`, "must be an array")
    return problems
  }
  if (kind === "none") {
    if (values.length > 0) problem(`${path}.values`, `must be empty for ${operator}`)
    return problems
  }
  if (check === undefined || check === null) return problems
  if (values.length === 0) problem(`${path}.values`, "must contain at least one value")
  // Above the limit, the values are not checked one by one: the condition is refused as a whole.
  if (values.length > limit("valuesPerCondition")) {
    problem(`${path}.values`, atMost("valuesPerCondition"))
    return problems
  }
  let valuesValid = true
  values.forEach((value, i) => {
    const message = tooLong(value) ? atMostLength("conditionStringLength") : check(value)
    if (message !== undefined) {
      problem(`${path}.values[${i}]`, message)
      valuesValid = false
    } else if (segmentOp && segmentKeys !== null && !segmentKeys.has(value as string)) {
      problem(`${path}.values[${i}]`, `unknown segment ${JSON.stringify(value)}`)
    }
  })
  if (kind === "regex" && valuesValid && values.length > 0) {
    const message = regexSizeProblem(values as ReadonlyArray<string>)
    if (message !== undefined) problem(`${path}.values`, message)
  }
  return problems
}

/** The problems of the fields of a group other than `anyOf`: a group has no operator, attribute, values or negate. */
const groupFieldProblems = (group: Record<string, unknown>, path: string): Array<Problem> =>
  Object.keys(group)
    .filter((field) => field !== "anyOf")
    .map((field) => ({
      path: `${path}.${field}`,
      message:
        field === "negate"
          ? "must be absent: a group cannot be negated (whether an absent attribute would then match is ambiguous); negate its conditions instead"
          : "is not a field of a group (a group has only anyOf; a condition with an operator goes inside one of its lists)"
    }))

/** A group: 1 to `listsPerGroup` lists, each of 1 to `conditionsPerList` conditions (no group among them). */
const validateGroup = (group: Record<string, unknown>, path: string, segmentKeys: ReadonlySet<string> | null): Array<Problem> => {
  const problems = groupFieldProblems(group, path)
  const lists: unknown = group.anyOf
  if (!Array.isArray(lists)) return [...problems, { path: `${path}.anyOf`, message: "must be an array of lists of conditions" }]
  if (lists.length === 0) return [...problems, { path: `${path}.anyOf`, message: "must have at least one list (a group without lists would match nothing)" }]
  if (lists.length > limit("listsPerGroup")) return [...problems, { path: `${path}.anyOf`, message: atMost("listsPerGroup") }]
  lists.forEach((list: unknown, j) => {
    const at = `${path}.anyOf[${j}]`
    if (!Array.isArray(list)) problems.push({ path: at, message: "must be an array of conditions" })
    else if (list.length === 0) problems.push({ path: at, message: "must have at least one condition (an empty list would match every context)" })
    else if (list.length > limit("conditionsPerList")) problems.push({ path: at, message: atMost("conditionsPerList") })
    else {
      list.forEach((c: unknown, k) => {
        if (isGroupShaped(c)) problems.push({ path: `${at}[${k}]`, message: NESTED_GROUP_MESSAGE })
        else problems.push(...validateCondition(c as Condition, `${at}[${k}]`, segmentKeys))
      })
    }
  })
  return problems
}

const validateItem = (item: ConditionOrGroup, path: string, segmentKeys: ReadonlySet<string> | null): Array<Problem> =>
  isGroupShaped(item) ? validateGroup(item as Record<string, unknown>, path, segmentKeys) : validateCondition(item as Condition, path, segmentKeys)

/** Conditions of a targeting rule: operators, values, regexes, versions, dates, segment references and groups. */
export const validateConditions = (
  conditions: ReadonlyArray<ConditionOrGroup>,
  segmentKeys: ReadonlySet<string>,
  path = "conditions"
): ReadonlyArray<Problem> => {
  if (!Array.isArray(conditions)) return [{ path, message: "must be an array" }]
  const tooMany = countProblem(conditions, path, "conditionsPerRule")
  if (tooMany.length > 0) return tooMany
  return conditions.flatMap((c, i) => validateItem(c, `${path}[${i}]`, segmentKeys))
}

/** Conditions of a segment: as for rules, but segment operators are refused (no segment in a segment), in groups too. */
export const validateSegmentConditions = (
  conditions: ReadonlyArray<ConditionOrGroup>,
  path = "conditions"
): ReadonlyArray<Problem> => {
  if (!Array.isArray(conditions)) return [{ path, message: "must be an array" }]
  const tooMany = countProblem(conditions, path, "conditionsPerSegment")
  if (tooMany.length > 0) return tooMany
  return conditions.flatMap((c, i) => validateItem(c, `${path}[${i}]`, null))
}
