/**
 * The condition operators, declared once. This table drives:
 * - the schema (`Targeting.Operator` lists its names),
 * - write-time validation (`ValidateConditions`: the check for each kind of value, and whether the
 *   condition names an attribute or segments),
 * - the compiler and evaluator (`evaluation/Operators.ts` prepares values by their kind and maps
 *   every attribute operator to its comparison; a missing one does not type-check),
 * - the operator table in docs/guide/evaluation.md (a test compares it with `docsTable()`).
 *
 * Adding an operator: a row here, its comparison in evaluation/Operators.ts, and the docs row.
 *
 * Pure data with no imports, so the evaluator can load it in any JavaScript runtime.
 */

/** What a condition's `values` hold; checked at write time, prepared once at compile time. */
export type ValueKind = "json" | "string" | "regex" | "number" | "date" | "semver" | "none" | "segmentKey"

/** What the condition tests: a context attribute (named by `attribute`) or segment membership (no attribute). */
export type Subject = "attribute" | "segments"

interface Declaration {
  readonly values: ValueKind
  readonly subject: Subject
  /** One line for the docs table. */
  readonly meaning: string
}

export const OPERATOR_TABLE = {
  in: { values: "json", subject: "attribute", meaning: "the attribute equals one of the values (strict JSON equality)" },
  notIn: { values: "json", subject: "attribute", meaning: "the attribute equals none of the values" },
  contains: { values: "string", subject: "attribute", meaning: "the attribute is a string containing one of the values" },
  startsWith: { values: "string", subject: "attribute", meaning: "the attribute is a string starting with one of the values" },
  endsWith: { values: "string", subject: "attribute", meaning: "the attribute is a string ending with one of the values" },
  matches: { values: "regex", subject: "attribute", meaning: "the attribute is a string matching one of the regular expressions" },
  lt: { values: "number", subject: "attribute", meaning: "the attribute is a number less than one of the values" },
  lte: { values: "number", subject: "attribute", meaning: "the attribute is a number less than or equal to one of the values" },
  gt: { values: "number", subject: "attribute", meaning: "the attribute is a number greater than one of the values" },
  gte: { values: "number", subject: "attribute", meaning: "the attribute is a number greater than or equal to one of the values" },
  before: { values: "date", subject: "attribute", meaning: "the attribute is a date before one of the values" },
  after: { values: "date", subject: "attribute", meaning: "the attribute is a date after one of the values" },
  semverEq: { values: "semver", subject: "attribute", meaning: "the attribute is a version equal in precedence to one of the values" },
  semverLt: { values: "semver", subject: "attribute", meaning: "the attribute is a version lower than one of the values" },
  semverGt: { values: "semver", subject: "attribute", meaning: "the attribute is a version higher than one of the values" },
  exists: { values: "none", subject: "attribute", meaning: "the attribute is present (not absent, not null)" },
  inSegment: { values: "segmentKey", subject: "segments", meaning: "the context is in one of the segments" },
  notInSegment: { values: "segmentKey", subject: "segments", meaning: "the context is in none of the segments" }
} as const satisfies Record<string, Declaration>

type Table = typeof OPERATOR_TABLE

export type OperatorName = keyof Table

/** The operators that test segment membership. */
export type SegmentOperatorName = { [K in OperatorName]: Table[K]["subject"] extends "segments" ? K : never }[OperatorName]

/** The operators that test an attribute. */
export type AttributeOperatorName = Exclude<OperatorName, SegmentOperatorName>

/** The value kind of an attribute operator. */
export type ValueKindOf<K extends OperatorName> = Table[K]["values"]

/** Every operator name, in table order (the order of the schema and of the docs). */
export const OPERATOR_NAMES = Object.keys(OPERATOR_TABLE) as [OperatorName, ...Array<OperatorName>]

export const isOperatorName = (u: unknown): u is OperatorName =>
  typeof u === "string" && Object.prototype.hasOwnProperty.call(OPERATOR_TABLE, u)

export const isSegmentOperator = (u: unknown): u is SegmentOperatorName =>
  isOperatorName(u) && OPERATOR_TABLE[u].subject === "segments"

export const isAttributeOperator = (u: unknown): u is AttributeOperatorName =>
  isOperatorName(u) && OPERATOR_TABLE[u].subject === "attribute"

const VALUE_KIND_LABELS: Record<ValueKind, string> = {
  json: "any JSON values",
  string: "strings",
  regex: "regular expressions (strings)",
  number: "finite numbers",
  date: "ISO 8601 dates or epoch milliseconds",
  semver: "semantic versions (2.0.0)",
  none: "none (an empty array)",
  segmentKey: "segment keys"
}

/** The Markdown table of docs/guide/evaluation.md, generated from the declaration. */
export const docsTable = (): string =>
  [
    "| operator | `attribute` | `values` | matches when |",
    "|---|---|---|---|",
    ...OPERATOR_NAMES.map((name) => {
      const d: Declaration = OPERATOR_TABLE[name]
      const attribute = d.subject === "attribute" ? "required" : "absent"
      return `| \`${name}\` | ${attribute} | ${VALUE_KIND_LABELS[d.values]} | ${d.meaning} |`
    })
  ].join("\n")
