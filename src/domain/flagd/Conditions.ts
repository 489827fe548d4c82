/**
 * flagd's JSONLogic conditions, operator by operator, as Flagport conditions. This table is the one
 * place that says which operators import and how: `conditionFormula` dispatches on it, and the
 * translation table of docs/guide/coming-from-flagd.md is generated from it (`docsTable`, compared by a
 * test). Every row is exact for a present attribute of the type the operator compares and for an
 * absent one (Formula.ts); where flagd's answer depends on something Flagport cannot test, the
 * construct is refused with its reason.
 */
import type { AttributeOperatorName } from "../conditions/OperatorTable.js"
import { attributeOf, isVar } from "./Attribute.js"
import { and, atom, constant, type Formula, not, or } from "./Formula.js"
import { refuse, type Path, show } from "./Refusal.js"
import { semverFormula } from "./SemverLiteral.js"

type Translate = (args: unknown, path: Path) => Formula

interface Row {
  /** The flagd construct, for the docs table. */
  readonly flagd: string
  /** What it becomes in Flagport, for the docs table. */
  readonly flagport: string
  readonly translate: Translate
}

const isScalar = (u: unknown): u is string | number | boolean =>
  typeof u === "string" || typeof u === "boolean" || (typeof u === "number" && Number.isFinite(u))

const argList = (args: unknown, path: Path, operator: string, counts: ReadonlyArray<number>): ReadonlyArray<unknown> => {
  if (!Array.isArray(args) || !counts.includes(args.length)) {
    return refuse(path, `${JSON.stringify(operator)} expects ${counts.join(" or ")} arguments, got ${show(args)}`)
  }
  return args
}

/** One side a `var`, the other a literal; `flipped` when the literal comes first. */
const varAndLiteral = (args: unknown, path: Path, operator: string) => {
  const [left, right] = argList(args, path, operator, [2])
  if (isVar(left) && !isVar(right)) return { attribute: attributeOf(left, [...path, 0]), literal: right, at: [...path, 1], flipped: false }
  if (isVar(right) && !isVar(left)) return { attribute: attributeOf(right, [...path, 1]), literal: left, at: [...path, 0], flipped: true }
  return refuse(path, `${JSON.stringify(operator)} must compare one attribute ({"var": ...}) with a literal, got ${show(args)}`)
}

/** flagd's truthiness of an attribute: present and not false, 0 or "" (flagd reads absent as null). */
const truthy = (attribute: string): Formula => atom({ attribute, operator: "notIn", values: [false, 0, ""] }, false)

const strictEquals = (operator: string): Translate => (args, path) => {
  const { attribute, literal, at } = varAndLiteral(args, path, operator)
  if (!isScalar(literal)) return refuse(at, `${JSON.stringify(operator)} with ${show(literal)}: only strings, numbers and booleans import`)
  return atom({ attribute, operator: "in", values: [literal] }, false)
}

/**
 * Loose `==` compares two strings as they are, but converts a string to a number against anything
 * else ("5" == 5); Flagport compares strictly. With a literal that is no number ("gold"), flagd
 * either compares strings or fails the evaluation, so `in` is exact; with a number, a boolean or
 * a numeric string the conversions have no Flagport equivalent.
 */
const looseEquals = (operator: string): Translate => (args, path) => {
  const { attribute, literal, at } = varAndLiteral(args, path, operator)
  // The targeting key is always a string, so against a string literal `==` compares strings.
  const stringsOnly = attribute === "key" && typeof literal === "string"
  if (!stringsOnly && (typeof literal !== "string" || !Number.isNaN(Number(literal)))) {
    return refuse(
      at,
      `loose ${JSON.stringify(operator)} with ${show(literal)} converts between strings, numbers and booleans ("5" == 5), which Flagport never does; use "${operator}=" in flagd for a strict comparison`
    )
  }
  return atom({ attribute, operator: "in", values: [literal] }, false)
}

const negated = (translate: Translate): Translate => (args, path) => not(translate(args, path))

/**
 * `in` is two operators in JSONLogic: membership in a list of literals (`{"in": [{"var": "x"},
 * ["a", "b"]]}`) and a substring test (`{"in": ["@acme.com", {"var": "email"}]}`).
 */
const inTranslate: Translate = (args, path) => {
  const [item, container] = argList(args, path, "in", [2])
  if (isVar(item) && Array.isArray(container)) {
    const attribute = attributeOf(item, [...path, 0])
    container.forEach((value, i) => {
      if (!isScalar(value)) refuse([...path, 1, i], `"in" lists only strings, numbers and booleans import, got ${show(value)}`)
    })
    return container.length === 0 ? constant(false) : atom({ attribute, operator: "in", values: container }, false)
  }
  if (typeof item === "string" && isVar(container)) {
    // flagd answers false for "" (a falsy value), where any string contains the empty string.
    if (item.length === 0) return refuse([...path, 0], `"in" with an empty substring has no exact Flagport equivalent`)
    return atom({ attribute: attributeOf(container, [...path, 1]), operator: "contains", values: [item] }, false)
  }
  return refuse(path, `"in" imports as membership ({"in": [{"var": ...}, [...]]}) or substring ({"in": ["text", {"var": ...}]}), got ${show(args)}`)
}

const affix = (operator: "starts_with" | "ends_with", flagport: "startsWith" | "endsWith"): Translate => (args, path) => {
  const [subject, value] = argList(args, path, operator, [2])
  const attribute = attributeOf(subject, [...path, 0])
  if (typeof value !== "string") return refuse([...path, 1], `${JSON.stringify(operator)} needs a string literal, got ${show(value)}`)
  return atom({ attribute, operator: flagport, values: [value] }, false)
}

const semVer: Translate = (args, path) => {
  const [left, sign, right] = argList(args, path, "sem_ver", [3])
  if (isVar(left) && !isVar(right)) return semverFormula(attributeOf(left, [...path, 0]), sign, right, false, path)
  if (isVar(right) && !isVar(left)) return semverFormula(attributeOf(right, [...path, 2]), sign, left, true, path)
  return refuse(path, `"sem_ver" must compare one attribute with a version, got ${show(args)}`)
}

type NumericOperator = "<" | "<=" | ">" | ">="
const NUMERIC: Record<NumericOperator, { readonly flagport: AttributeOperatorName; readonly flipped: NumericOperator; readonly holds: (a: number, b: number) => boolean }> = {
  "<": { flagport: "lt", flipped: ">", holds: (a, b) => a < b },
  "<=": { flagport: "lte", flipped: ">=", holds: (a, b) => a <= b },
  ">": { flagport: "gt", flipped: "<", holds: (a, b) => a > b },
  ">=": { flagport: "gte", flipped: "<=", holds: (a, b) => a >= b }
}

/** `attribute op n`; flagd compares an absent attribute (null) as 0, so its answer then is `0 op n`. */
const numericAtom = (attribute: string, operator: NumericOperator, n: number): Formula =>
  atom({ attribute, operator: NUMERIC[operator].flagport, values: [n] }, NUMERIC[operator].holds(0, n))

const numberLiteral = (value: unknown, path: Path, operator: string): number =>
  typeof value === "number" && Number.isFinite(value)
    ? value
    : refuse(path, `${JSON.stringify(operator)} imports against number literals only (flagd converts strings), got ${show(value)}`)

/** `a op b` and the "between" form `n1 op {"var": x} op n2`. */
const numeric = (operator: NumericOperator): Translate => (args, path) => {
  const list = argList(args, path, operator, [2, 3])
  if (list.length === 3) {
    const attribute = attributeOf(list[1], [...path, 1])
    const low = numberLiteral(list[0], [...path, 0], operator)
    const high = numberLiteral(list[2], [...path, 2], operator)
    return and([numericAtom(attribute, NUMERIC[operator].flipped, low), numericAtom(attribute, operator, high)])
  }
  const { attribute, literal, at, flipped } = varAndLiteral(list, path, operator)
  return numericAtom(attribute, flipped ? NUMERIC[operator].flipped : operator, numberLiteral(literal, at, operator))
}

const operand = (args: unknown): unknown => (Array.isArray(args) && args.length === 1 ? args[0] : args)

const combine = (operator: "and" | "or"): Translate => (args, path) => {
  if (!Array.isArray(args)) return refuse(path, `${JSON.stringify(operator)} expects a list, got ${show(args)}`)
  const formulas = args.map((arg, i) => conditionFormula(arg, [...path, i]))
  return operator === "and" ? and(formulas) : or(formulas)
}

export const CONDITION_OPERATORS: Readonly<Record<string, Row>> = {
  and: { flagd: "`and`", flagport: "all conditions of one rule", translate: combine("and") },
  or: { flagd: "`or`", flagport: "one rule with an `anyOf` group, one list per alternative (conditions all alternatives share stay beside the group)", translate: combine("or") },
  "!": { flagd: "`!`", flagport: "the branches swapped (rules ordered so an absent attribute lands where flagd sends it)", translate: (args, path) => not(conditionFormula(operand(args), [...path, 0])) },
  "!!": { flagd: "`!!`", flagport: "the condition itself", translate: (args, path) => conditionFormula(operand(args), [...path, 0]) },
  "===": { flagd: "`===` with a string, number or boolean", flagport: "`in` with that one value", translate: strictEquals("===") },
  "!==": { flagd: "`!==`", flagport: "the `===` condition, branches swapped", translate: negated(strictEquals("!==")) },
  "==": { flagd: "`==` with a string that is not a number (any string against `targetingKey`)", flagport: "`in` with that one value", translate: looseEquals("==") },
  "!=": { flagd: "`!=`, likewise", flagport: "the `==` condition, branches swapped", translate: negated(looseEquals("!=")) },
  in: {
    flagd: "`in`: membership `{\"in\": [{\"var\": \"plan\"}, [\"pro\", \"team\"]]}` or substring `{\"in\": [\"@acme.com\", {\"var\": \"email\"}]}`",
    flagport: "`in` with the list's values; `contains` for a substring",
    translate: inTranslate
  },
  starts_with: { flagd: "`starts_with`", flagport: "`startsWith`", translate: affix("starts_with", "startsWith") },
  ends_with: { flagd: "`ends_with`", flagport: "`endsWith`", translate: affix("ends_with", "endsWith") },
  sem_ver: { flagd: "`sem_ver` with `=` `!=` `<` `<=` `>` `>=` `^` `~`", flagport: "`semverEq`, `semverLt`, `semverGt` (two for `<=`, `>=`, `!=`; a range for `^` and `~`)", translate: semVer },
  "<": { flagd: "`<` against a number, and `n1 < var < n2`", flagport: "`lt` (`gt` and `lt` for the between form)", translate: numeric("<") },
  "<=": { flagd: "`<=`", flagport: "`lte`", translate: numeric("<=") },
  ">": { flagd: "`>`", flagport: "`gt`", translate: numeric(">") },
  ">=": { flagd: "`>=`", flagport: "`gte`", translate: numeric(">=") }
}

/** Operators a flagd file may use that have no faithful Flagport equivalent, and why. */
export const REFUSED_OPERATORS: Readonly<Record<string, string>> = {
  missing: "tests absence, which a Flagport condition cannot (a condition on an absent attribute never matches)",
  missing_some: "tests absence, which a Flagport condition cannot",
  cat: "builds a string at evaluation time (imported only as fractional's bucketing value)",
  substr: "computes a string at evaluation time",
  "+": "arithmetic at evaluation time",
  "-": "arithmetic at evaluation time",
  "*": "arithmetic at evaluation time",
  "/": "arithmetic at evaluation time",
  "%": "arithmetic at evaluation time",
  max: "arithmetic at evaluation time",
  min: "arithmetic at evaluation time",
  merge: "builds a list at evaluation time",
  map: "iterates at evaluation time",
  filter: "iterates at evaluation time",
  reduce: "iterates at evaluation time",
  all: "iterates over a list attribute",
  some: "iterates over a list attribute",
  none: "iterates over a list attribute",
  if: "an `if` inside a condition (rewrite it with `and` / `or`)",
  fractional: "a `fractional` inside a condition (fractional imports where a branch serves it)"
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A flagd expression in a condition's place (an `if` test, an operand of `and` / `or` / `!`) as a
 * formula: literals by their truthiness, a bare `var` by the attribute's, operators by the table.
 */
export const conditionFormula = (expression: unknown, path: Path): Formula => {
  if (expression === null || isScalar(expression)) return constant(Boolean(expression))
  if (isVar(expression)) return truthy(attributeOf(expression, path))
  if (!isRecord(expression) || Object.keys(expression).length !== 1) {
    return refuse(path, `a condition must be one JSONLogic operation, got ${show(expression)}`)
  }
  const operator = Object.keys(expression)[0]!
  const at = [...path, operator]
  const row = Object.prototype.hasOwnProperty.call(CONDITION_OPERATORS, operator) ? CONDITION_OPERATORS[operator] : undefined
  if (row !== undefined) return row.translate(expression[operator], at)
  const reason = Object.prototype.hasOwnProperty.call(REFUSED_OPERATORS, operator) ? REFUSED_OPERATORS[operator] : undefined
  return refuse(at, `${JSON.stringify(operator)} has no Flagport equivalent${reason === undefined ? "" : `: ${reason}`}`)
}
