/**
 * The condition operators as the dashboard offers them. The list and each operator's value kind
 * come from the domain's one declaration (src/domain/conditions/OperatorTable.ts, pure data), so
 * a new operator appears here without a change; this file only says which input suits each kind.
 */
import { OPERATOR_NAMES, OPERATOR_TABLE, type OperatorName, type ValueKind } from "../../src/domain/conditions/OperatorTable.js"

export { OPERATOR_NAMES, type OperatorName }

/** How the values of a condition are typed in. */
export type ValueInput = "json" | "text" | "regex" | "number" | "date" | "semver" | "none" | "segments"

const INPUT_FOR: Record<ValueKind, ValueInput> = {
  json: "json",
  string: "text",
  regex: "regex",
  number: "number",
  date: "date",
  semver: "semver",
  none: "none",
  segmentKey: "segments"
}

export const isOperator = (name: string): name is OperatorName => Object.prototype.hasOwnProperty.call(OPERATOR_TABLE, name)

export const inputFor = (operator: string): ValueInput => (isOperator(operator) ? INPUT_FOR[OPERATOR_TABLE[operator].values] : "json")

/** Whether the condition names a context attribute (segment operators do not). */
export const takesAttribute = (operator: string): boolean => !isOperator(operator) || OPERATOR_TABLE[operator].subject === "attribute"

export const meaning = (operator: string): string => (isOperator(operator) ? OPERATOR_TABLE[operator].meaning : "")
