/**
 * What a rule's or a segment's `conditions` hold: a condition (one operator on one attribute, or
 * segment membership) or a group of them, `{ "anyOf": [[Condition, ...], ...] }`, which matches
 * when every condition of at least one of its lists matches. Groups do not nest.
 *
 * Decoding chooses the form by the `anyOf` field before it looks at anything else, so a mistake
 * in a condition is reported as a condition's (`values is required`), never also as a group's
 * (`anyOf is required`), as a plain `Schema.Union` would. Generated documents (OpenAPI, the
 * project file's JSON Schema) still show the union (`anyOf` of the two), through Effect's
 * surrogate annotation.
 */
import type * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { choiceAnnotation } from "../ChosenSchema.js"
import { isGroupShaped, plainConditions as openGroups } from "../conditions/ConditionItems.js"
import { isSegmentOperator, OPERATOR_NAMES } from "../conditions/OperatorTable.js"
export { isGroupShaped } from "../conditions/ConditionItems.js"
import { documentName } from "../DocumentName.js"
import { Text } from "./Text.js"

/** Every operator of the contract's condition table, declared in conditions/OperatorTable.ts. */
export const Operator = Schema.Literal(...OPERATOR_NAMES)
export type Operator = typeof Operator.Type

/**
 * `attribute: "key"` reads the context key, any other name `context.attributes[name]`.
 * Segment operators carry no attribute; their values are segment keys.
 */
export const Condition = Schema.Struct({
  attribute: Schema.optional(Text),
  operator: Operator,
  values: Schema.Array(Schema.Unknown),
  negate: Schema.optional(Schema.Boolean)
}).annotations(documentName("Condition"))
export type Condition = typeof Condition.Type

/** The refusal of a group inside a group, at the inner group's place (decoding and validation say the same). */
export const NESTED_GROUP_MESSAGE = "must be a condition, not a group: groups do not nest (write each alternative as one list of the outer group)"

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Inside a group's list: a condition (0), never a group (-1, refused). */
const chooseListed = (input: unknown): number => (isGroupShaped(input) ? -1 : 0)

/** A condition inside a group's list: a group there is refused with its own message. */
const ListedCondition = Schema.declare(
  [Condition],
  {
    decode: (condition) => (input, options, ast) =>
      chooseListed(input) === 0 ? ParseResult.decodeUnknown(condition)(input, options) : ParseResult.fail(new ParseResult.Type(ast, input, NESTED_GROUP_MESSAGE)),
    encode: (condition) => (input, options, ast) =>
      isGroupShaped(input) ? ParseResult.fail(new ParseResult.Type(ast, input, NESTED_GROUP_MESSAGE)) : ParseResult.encodeUnknown(condition)(input, options)
  },
  // Generated data (Arbitrary, used by tests) is a condition's.
  { [SchemaAST.SurrogateAnnotationId]: Condition.ast, arbitrary: (condition) => condition, ...choiceAnnotation(chooseListed) }
)

/** `{ "anyOf": [[Condition, ...], ...] }`: matches when every condition of at least one list matches. */
export const ConditionGroup = Schema.Struct({
  anyOf: Schema.Array(Schema.Array(ListedCondition))
}).annotations({
  ...documentName("ConditionGroup"),
  description:
    "A group: it matches when every condition of at least one of its lists matches. 1 to 20 lists of 1 to 20 conditions each; a list holds conditions, not groups, and a group has no `negate`."
})
export type ConditionGroup = typeof ConditionGroup.Type

export type ConditionOrGroup = Condition | ConditionGroup

const Alternatives = Schema.Union(Condition, ConditionGroup)
type Encoded = typeof Alternatives.Encoded

/** An item of `conditions`: a group (1) when it has `anyOf`, else a condition (0). */
const chooseItem = (input: unknown): number => (isGroupShaped(input) ? 1 : 0)

/** An item of a rule's or a segment's `conditions`: a condition, or a group (when it has `anyOf`). */
export const ConditionOrGroup = Schema.declare<ConditionOrGroup, Encoded, readonly [typeof Condition, typeof ConditionGroup]>(
  [Condition, ConditionGroup],
  {
    decode: (condition, group) => (input, options): Effect.Effect<ConditionOrGroup, ParseResult.ParseIssue> =>
      chooseItem(input) === 1 ? ParseResult.decodeUnknown(group)(input, options) : ParseResult.decodeUnknown(condition)(input, options),
    encode: (condition, group) => (input, options): Effect.Effect<Encoded, ParseResult.ParseIssue> =>
      isGroupShaped(input) ? ParseResult.encodeUnknown(group)(input, options) : ParseResult.encodeUnknown(condition)(input, options)
  },
  {
    [SchemaAST.SurrogateAnnotationId]: Alternatives.ast,
    arbitrary: (condition, group) => (fc) => fc.oneof(condition(fc), group(fc)),
    // The SQL adapter's row decoder compiles the chosen schema instead of calling this declaration per item.
    ...choiceAnnotation(chooseItem)
  }
)

/** Whether an item of `conditions` is a group. */
export const isGroup = (c: ConditionOrGroup): c is ConditionGroup => isGroupShaped(c)

/** The conditions of a list of conditions and groups, groups opened (one level: groups do not nest). */
export const plainConditions = (conditions: ReadonlyArray<ConditionOrGroup>): ReadonlyArray<Condition> => openGroups<Condition>(conditions)

/**
 * Whether sent conditions (read defensively: not validated yet) may name a segment, in groups too:
 * whether validating them needs the project's segment keys. Anything not an array says yes.
 */
export const mayNameSegments = (conditions: unknown): boolean => {
  if (!Array.isArray(conditions)) return true
  return conditions.some((c: unknown) =>
    isGroupShaped(c) ? mayNameSegments((c as { anyOf: unknown }).anyOf) : isRecord(c) ? isSegmentOperator(c.operator) : Array.isArray(c) && mayNameSegments(c)
  )
}
