/**
 * The trace explain records (Explain.ts), and its schemas (for the HTTP declaration and the
 * OpenAPI document). Also the body of `POST /v1/explain`, documented in docs/guide/evaluation.md:
 *
 *   FlagTrace      { flagKey, prerequisites: [PrerequisiteTrace], rules: [RuleTrace] }
 *   PrerequisiteTrace { flagKey, variationKey, met, result (null: no such flag), trace (null: no such flag) }
 *   RuleTrace      { ruleId, ruleIndex, matched, conditions: [ConditionTrace | GroupTrace], rollout? }
 *   ConditionTrace { operator, values, negate, matched, and either
 *                    attribute, absent, value (when not absent)      for attribute operators, or
 *                    segments: [{ segmentKey, matched, listed?, conditions }] for inSegment / notInSegment;
 *                    listed: "included" / "excluded" when the segment's key lists decided, before its conditions }
 *   GroupTrace     { anyOf: [{ matched, conditions: [ConditionTrace] }], matched,
 *                    matchedList (the index of the list that matched; null: none did) }
 *   RolloutTrace   { bucketBy, absent, value?, bucket (null: no bucket value), variationKey (null: none served) }
 *
 * A segment's conditions are condition and group traces too (without segments: a segment names none).
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { EvaluationResult } from "./EvaluationResult.js"

export interface SegmentTrace {
  readonly segmentKey: string
  readonly matched: boolean
  /** Set when a key list decided: the key read was in `included` (in) or `excluded` (out); its conditions were not read. */
  readonly listed?: "included" | "excluded"
  readonly conditions: ReadonlyArray<ConditionOrGroupTrace>
}

export interface ConditionTrace {
  readonly operator: string
  readonly values: ReadonlyArray<unknown>
  readonly negate: boolean
  readonly matched: boolean
  readonly attribute?: string
  readonly absent?: boolean
  readonly value?: unknown
  readonly segments?: ReadonlyArray<SegmentTrace>
}

/** One list of a group that was tried: the conditions evaluated, up to the first that failed. */
export interface ListTrace {
  readonly matched: boolean
  readonly conditions: ReadonlyArray<ConditionTrace>
}

/** A group: the lists tried, in order, up to the first that matched (`matchedList`). */
export interface GroupTrace {
  readonly anyOf: ReadonlyArray<ListTrace>
  readonly matched: boolean
  readonly matchedList: number | null
}

export type ConditionOrGroupTrace = ConditionTrace | GroupTrace

export interface RolloutTrace {
  readonly bucketBy: string
  readonly absent: boolean
  readonly value?: unknown
  readonly bucket: number | null
  readonly variationKey: string | null
}

export interface RuleTrace {
  readonly ruleId: string
  readonly ruleIndex: number
  readonly matched: boolean
  readonly conditions: ReadonlyArray<ConditionOrGroupTrace>
  readonly rollout?: RolloutTrace
}

export interface PrerequisiteTrace {
  readonly flagKey: string
  readonly variationKey: string
  readonly met: boolean
  readonly result: EvaluationResult | null
  readonly trace: FlagTrace | null
}

export interface FlagTrace {
  readonly flagKey: string
  readonly prerequisites: ReadonlyArray<PrerequisiteTrace>
  readonly rules: ReadonlyArray<RuleTrace>
}

export interface Explanation {
  readonly result: EvaluationResult
  readonly trace: FlagTrace
}

// --- schemas --------------------------------------------------------------------------------------

/** An optional field that is absent, never `undefined` (the interfaces above are exact). */
const absentOr = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })

const attributeFields = {
  operator: Schema.String,
  values: Schema.Array(Schema.Unknown),
  negate: Schema.Boolean,
  matched: Schema.Boolean,
  attribute: absentOr(Schema.String),
  absent: absentOr(Schema.Boolean),
  value: absentOr(Schema.Unknown)
}

/** The group trace over conditions traced by `condition`: named `name` (with `name` + "List" for its lists). */
const groupTraceSchema = <C extends Schema.Schema.Any>(condition: C, name: string) =>
  Schema.Struct({
    anyOf: Schema.Array(Schema.Struct({ matched: Schema.Boolean, conditions: Schema.Array(condition) }).annotations(documentName(`${name}List`))),
    matched: Schema.Boolean,
    matchedList: Schema.NullOr(Schema.Number)
  }).annotations({
    ...documentName(name),
    description: "A group (`anyOf`): the lists tried, in order, up to the first whose every condition matched; `matchedList` is its index (null: none matched)."
  })

const SegmentConditionTraceSchema = Schema.Struct(attributeFields).annotations(documentName("SegmentConditionTrace"))
const SegmentGroupTraceSchema = groupTraceSchema(SegmentConditionTraceSchema, "SegmentGroupTrace")

export const ConditionTraceSchema = Schema.Struct({
  ...attributeFields,
  segments: absentOr(
    Schema.Array(
      Schema.Struct({
        segmentKey: Schema.String,
        matched: Schema.Boolean,
        listed: absentOr(Schema.Literal("included", "excluded").annotations({
          description: "Present when the segment's key lists decided: the key read (the context key, or the segment's `keyAttribute`) is in `included` (the segment matched) or `excluded` (it did not); its conditions were then not read."
        })),
        conditions: Schema.Array(Schema.Union(SegmentConditionTraceSchema, SegmentGroupTraceSchema))
      }).annotations(documentName("SegmentTrace"))
    )
  )
}).annotations(documentName("ConditionTrace"))

export const GroupTraceSchema = groupTraceSchema(ConditionTraceSchema, "GroupTrace")

export const RolloutTraceSchema = Schema.Struct({
  bucketBy: Schema.String,
  absent: Schema.Boolean,
  value: absentOr(Schema.Unknown),
  bucket: Schema.NullOr(Schema.Number),
  variationKey: Schema.NullOr(Schema.String)
}).annotations(documentName("RolloutTrace"))

export const RuleTraceSchema = Schema.Struct({
  ruleId: Schema.String,
  ruleIndex: Schema.Number,
  matched: Schema.Boolean,
  conditions: Schema.Array(Schema.Union(ConditionTraceSchema, GroupTraceSchema)),
  rollout: absentOr(RolloutTraceSchema)
}).annotations(documentName("RuleTrace"))

interface FlagTraceEncoded {
  readonly flagKey: string
  readonly prerequisites: ReadonlyArray<{
    readonly flagKey: string
    readonly variationKey: string
    readonly met: boolean
    readonly result: typeof EvaluationResult.Encoded | null
    readonly trace: FlagTraceEncoded | null
  }>
  readonly rules: ReadonlyArray<typeof RuleTraceSchema.Encoded>
}

export const FlagTraceSchema: Schema.Schema<FlagTrace, FlagTraceEncoded> = Schema.Struct({
  flagKey: Schema.String,
  prerequisites: Schema.Array(
    Schema.Struct({
      flagKey: Schema.String,
      variationKey: Schema.String,
      met: Schema.Boolean,
      result: Schema.NullOr(EvaluationResult),
      trace: Schema.NullOr(Schema.suspend((): Schema.Schema<FlagTrace, FlagTraceEncoded> => FlagTraceSchema))
    }).annotations(documentName("PrerequisiteTrace"))
  ),
  rules: Schema.Array(RuleTraceSchema)
}).annotations(documentName("FlagTrace"))

export const ExplanationSchema = Schema.Struct({
  result: EvaluationResult,
  trace: FlagTraceSchema
}).annotations(documentName("Explanation"))
