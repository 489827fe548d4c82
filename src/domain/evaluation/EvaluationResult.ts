import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"

export const ReasonKind = Schema.Literal("OFF", "FALLTHROUGH", "RULE_MATCH", "PREREQUISITE_FAILED", "ERROR")
export type ReasonKind = typeof ReasonKind.Type

export const Reason = Schema.Struct({
  kind: ReasonKind,
  ruleId: Schema.optional(Schema.String),
  ruleIndex: Schema.optional(Schema.Number),
  /** With PREREQUISITE_FAILED: the first prerequisite flag that did not serve the named variation. */
  prerequisiteKey: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String)
}).annotations(documentName("Reason"))
export type Reason = typeof Reason.Type

/** `variationKey` is null only for an ERROR result whose off variation does not exist either. */
export const EvaluationResult = Schema.Struct({
  flagKey: Schema.String,
  value: Schema.Unknown,
  variationKey: Schema.NullOr(Schema.String),
  reason: Reason
}).annotations(documentName("EvaluationResult"))
export type EvaluationResult = typeof EvaluationResult.Type
