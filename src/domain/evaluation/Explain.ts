/**
 * Explain: why a context gets what it gets. `explain` runs the one evaluator (Evaluator.ts) with
 * an observer that records each step into a trace, so the trace is the path the answer took, and
 * `explain(...).result` is always what `evaluate(...)` answers.
 *
 * The trace (also the body of `POST /v1/explain`, documented in docs/guide/evaluation.md):
 *
 *   FlagTrace      { flagKey, prerequisites: [PrerequisiteTrace], rules: [RuleTrace] }
 *   PrerequisiteTrace { flagKey, variationKey, met, result (null: no such flag), trace (null: no such flag) }
 *   RuleTrace      { ruleId, ruleIndex, matched, conditions: [ConditionTrace], rollout? }
 *   ConditionTrace { operator, values, negate, matched, and either
 *                    attribute, absent, value (when not absent)      for attribute operators, or
 *                    segments: [{ segmentKey, matched, conditions }] for inSegment / notInSegment }
 *   RolloutTrace   { bucketBy, absent, value?, bucket (null: no bucket value), variationKey (null: none served) }
 *
 * Only the steps the evaluator took appear: a rule's conditions stop at the first that fails, the
 * rules at the first that serves, the prerequisites at the first not met, the segments of a
 * segment condition at the first that matches. A disabled or broken flag has empty lists.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { bucketOfHash } from "./Bucketing.js"
import type { CompiledCondition, CompiledPrerequisite, CompiledRollout, CompiledRule } from "./Compiled.js"
import { EvaluationResult } from "./EvaluationResult.js"
import { type CompiledSnapshot, type EvaluationObserver, evaluateObserved, type LocalContext } from "./Evaluator.js"

export interface SegmentTrace {
  readonly segmentKey: string
  readonly matched: boolean
  readonly conditions: ReadonlyArray<ConditionTrace>
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
  readonly conditions: ReadonlyArray<ConditionTrace>
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

// --- schemas (for the HTTP declaration and the OpenAPI document) --------------------------------

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

const SegmentConditionTraceSchema = Schema.Struct(attributeFields).annotations(documentName("SegmentConditionTrace"))

export const ConditionTraceSchema = Schema.Struct({
  ...attributeFields,
  segments: absentOr(
    Schema.Array(
      Schema.Struct({ segmentKey: Schema.String, matched: Schema.Boolean, conditions: Schema.Array(SegmentConditionTraceSchema) }).annotations(
        documentName("SegmentTrace")
      )
    )
  )
}).annotations(documentName("ConditionTrace"))

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
  conditions: Schema.Array(ConditionTraceSchema),
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

// --- the recording observer -----------------------------------------------------------------------

interface MutableFlag {
  flagKey: string
  prerequisites: Array<PrerequisiteTrace>
  rules: Array<RuleTrace>
}

interface MutableSegment {
  segmentKey: string
  matched: boolean
  conditions: Array<ConditionTrace>
}

interface MutableSegmentCondition {
  readonly condition: CompiledCondition
  readonly segments: Array<MutableSegment>
}

interface MutableRule {
  readonly rule: CompiledRule
  readonly index: number
  readonly conditions: Array<ConditionTrace>
  matched: boolean
  rollout?: RolloutTrace
}

const readValue = (value: unknown): { readonly absent: boolean; readonly value?: unknown } =>
  value === undefined || value === null ? { absent: true } : { absent: false, value }

/** Records the evaluator's steps; `root` holds the trace of the flag explained. */
class Recorder implements EvaluationObserver {
  readonly root: MutableFlag
  private readonly flags: Array<MutableFlag>
  /** The rule being evaluated (prerequisites come before any rule of their flag, so one slot suffices). */
  private rule: MutableRule | undefined
  private readonly segmentConditions: Array<MutableSegmentCondition> = []

  constructor(flagKey: string) {
    this.root = { flagKey, prerequisites: [], rules: [] }
    this.flags = [this.root]
  }

  private get flag(): MutableFlag {
    return this.flags[this.flags.length - 1]!
  }

  /** Where a condition's trace goes: the segment being evaluated, else the rule. */
  private get conditions(): Array<ConditionTrace> {
    const segmentCondition = this.segmentConditions[this.segmentConditions.length - 1]
    const segment = segmentCondition?.segments[segmentCondition.segments.length - 1]
    return segment !== undefined ? segment.conditions : this.rule!.conditions
  }

  readonly prerequisiteStart = (prerequisite: CompiledPrerequisite): void => {
    this.flags.push({ flagKey: prerequisite.flagKey, prerequisites: [], rules: [] })
  }

  readonly prerequisiteEnd = (prerequisite: CompiledPrerequisite, result: EvaluationResult | null, met: boolean): void => {
    const trace = this.flags.pop()!
    this.flag.prerequisites.push({
      flagKey: prerequisite.flagKey,
      variationKey: prerequisite.variationKey,
      met,
      result,
      trace: result === null ? null : trace
    })
  }

  readonly ruleStart = (rule: CompiledRule, index: number): void => {
    this.rule = { rule, index, conditions: [], matched: false }
  }

  readonly condition = (condition: CompiledCondition, value: unknown, matched: boolean): void => {
    this.conditions.push({
      attribute: condition.attribute,
      operator: condition.operator,
      values: condition.values,
      negate: condition.negate,
      ...readValue(value),
      matched
    })
  }

  readonly segmentConditionStart = (condition: CompiledCondition): void => {
    this.segmentConditions.push({ condition, segments: [] })
  }

  readonly segmentStart = (segmentKey: string): void => {
    this.segmentConditions[this.segmentConditions.length - 1]!.segments.push({ segmentKey, matched: false, conditions: [] })
  }

  readonly segmentEnd = (matched: boolean): void => {
    const segments = this.segmentConditions[this.segmentConditions.length - 1]!.segments
    segments[segments.length - 1]!.matched = matched
  }

  readonly segmentConditionEnd = (matched: boolean): void => {
    const { condition, segments } = this.segmentConditions.pop()!
    this.conditions.push({ operator: condition.operator, values: condition.values, negate: condition.negate, matched, segments })
  }

  readonly rollout = (rollout: CompiledRollout, value: unknown, hash: number | null, served: EvaluationResult | null): void => {
    const rules = this.flag.rules
    const last = rules[rules.length - 1]!
    rules[rules.length - 1] = {
      ...last,
      rollout: {
        bucketBy: rollout.bucketBy,
        ...readValue(value),
        bucket: hash === null ? null : bucketOfHash(hash),
        variationKey: served === null ? null : served.variationKey
      }
    }
  }

  readonly ruleEnd = (matched: boolean): void => {
    const rule = this.rule!
    this.flag.rules.push({ ruleId: rule.rule.id, ruleIndex: rule.index, matched, conditions: rule.conditions })
    this.rule = undefined
  }
}

/**
 * Evaluates one flag for one context and says how: `result` is exactly `evaluate`'s answer (the
 * same call, with a recording observer). Never throws.
 */
export const explain = (compiled: CompiledSnapshot, flagKey: string, context: LocalContext): Explanation => {
  const recorder = new Recorder(String(flagKey))
  const result = evaluateObserved(compiled, flagKey, context, recorder)
  return { result, trace: recorder.root }
}
