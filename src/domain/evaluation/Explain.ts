/**
 * Explain: why a context gets what it gets. `explain` runs the one evaluator (Evaluator.ts) with
 * an observer that records each step into a trace (its shape and schemas: Trace.ts), so the trace
 * is the path the answer took, and `explain(...).result` is always what `evaluate(...)` answers.
 *
 * Only the steps the evaluator took appear: a rule's conditions stop at the first that fails, the
 * rules at the first that serves, the prerequisites at the first not met, the segments of a
 * segment condition at the first that matches, a group's lists at the first that matches (and
 * each list's conditions at the first that fails). A disabled or broken flag has empty lists.
 */
import { bucketOfHash } from "./Bucketing.js"
import type { CompiledCondition, CompiledPrerequisite, CompiledRollout, CompiledRule } from "./Compiled.js"
import type { EvaluationResult } from "./EvaluationResult.js"
import { type CompiledSnapshot, type EvaluationObserver, evaluateObserved, type LocalContext } from "./Evaluator.js"
import type { ConditionOrGroupTrace, ConditionTrace, Explanation, FlagTrace, ListTrace, PrerequisiteTrace, RolloutTrace, RuleTrace } from "./Trace.js"

interface MutableFlag {
  flagKey: string
  prerequisites: Array<PrerequisiteTrace>
  rules: Array<RuleTrace>
}

interface MutableSegment {
  segmentKey: string
  matched: boolean
  listed?: "included" | "excluded"
  conditions: Array<ConditionOrGroupTrace>
}

interface MutableSegmentCondition {
  readonly condition: CompiledCondition
  readonly segments: Array<MutableSegment>
}

interface MutableList {
  matched: boolean
  conditions: Array<ConditionTrace>
}

interface MutableRule {
  readonly rule: CompiledRule
  readonly index: number
  readonly conditions: Array<ConditionOrGroupTrace>
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
  /**
   * Where the next condition's trace goes: the rule's conditions, a segment's, or a group's list's
   * (the innermost being evaluated on top). A list holds no group, so only a condition goes there.
   */
  private readonly sinks: Array<Array<ConditionOrGroupTrace>> = []
  private readonly segmentConditions: Array<MutableSegmentCondition> = []
  private readonly groups: Array<Array<MutableList>> = []

  constructor(flagKey: string) {
    this.root = { flagKey, prerequisites: [], rules: [] }
    this.flags = [this.root]
  }

  private get flag(): MutableFlag {
    return this.flags[this.flags.length - 1]!
  }

  private push(trace: ConditionOrGroupTrace): void {
    this.sinks[this.sinks.length - 1]!.push(trace)
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
    this.sinks.push(this.rule.conditions)
  }

  readonly condition = (condition: CompiledCondition, value: unknown, matched: boolean): void => {
    this.push({
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
    const segment: MutableSegment = { segmentKey, matched: false, conditions: [] }
    this.segmentConditions[this.segmentConditions.length - 1]!.segments.push(segment)
    this.sinks.push(segment.conditions)
  }

  readonly segmentListed = (list: "included" | "excluded"): void => {
    const segments = this.segmentConditions[this.segmentConditions.length - 1]!.segments
    segments[segments.length - 1]!.listed = list
  }

  readonly segmentEnd = (matched: boolean): void => {
    this.sinks.pop()
    const segments = this.segmentConditions[this.segmentConditions.length - 1]!.segments
    segments[segments.length - 1]!.matched = matched
  }

  readonly segmentConditionEnd = (matched: boolean): void => {
    const { condition, segments } = this.segmentConditions.pop()!
    this.push({ operator: condition.operator, values: condition.values, negate: condition.negate, matched, segments })
  }

  readonly groupStart = (): void => {
    this.groups.push([])
  }

  readonly listStart = (): void => {
    const list: MutableList = { matched: false, conditions: [] }
    this.groups[this.groups.length - 1]!.push(list)
    this.sinks.push(list.conditions)
  }

  readonly listEnd = (matched: boolean): void => {
    this.sinks.pop()
    const lists = this.groups[this.groups.length - 1]!
    lists[lists.length - 1]!.matched = matched
  }

  readonly groupEnd = (matched: boolean): void => {
    const lists: ReadonlyArray<ListTrace> = this.groups.pop()!
    this.push({ anyOf: lists, matched, matchedList: matched ? lists.length - 1 : null })
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
    this.sinks.pop()
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
