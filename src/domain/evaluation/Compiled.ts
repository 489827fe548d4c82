/**
 * The compiled form of a configuration snapshot: what `compile` (Compile.ts) builds once and the
 * evaluator (Evaluator.ts) and explain's trace read on every evaluation.
 */
import type { Bucketer } from "./Bucketing.js"
import type { EvaluationResult } from "./EvaluationResult.js"
import type { KeySet } from "./KeySet.js"
import type { OperatorDef } from "./Operators.js"
import type { PropertyReader } from "./jit/PropertyReader.js"
import type { RecordBuilder } from "./jit/RecordFactory.js"

export const KIND_ATTRIBUTE = 0
export const KIND_IN_SEGMENT = 1
export const KIND_NOT_IN_SEGMENT = 2
/** A group (`anyOf`): matches when every condition of one of its `lists` matches. */
export const KIND_GROUP = 3

export interface CompiledCondition {
  readonly kind: number
  /** The operator and values as written: read by explain's trace only, never by evaluation. */
  readonly operator: string
  readonly values: ReadonlyArray<unknown>
  /** True when the attribute is `key` (the context key). */
  readonly isKey: boolean
  readonly attribute: string
  /** True for names that exist on Object.prototype (`constructor`, `__proto__`...): read own properties only. */
  readonly ownOnly: boolean
  /** Reads the attribute from the attributes record (see jit/PropertyReader.ts). */
  readonly read: PropertyReader
  readonly op: OperatorDef
  readonly prepared: unknown
  /** True when a string value may go straight to `testString` (see Operators.hasStringShortcut). */
  readonly stringShortcut: boolean
  readonly negate: boolean
  /** For segment operators: each referenced segment, compiled. */
  readonly segments: ReadonlyArray<CompiledSegment>
  /** For segment operators: the keys of `segments`, in the same order (for explain's trace). */
  readonly segmentKeys: ReadonlyArray<string>
  /** For a group: each of its lists, compiled (never a group among them). Empty otherwise. */
  readonly lists: ReadonlyArray<ReadonlyArray<CompiledCondition>>
}

/** A segment as a segment condition reads it. */
export interface CompiledSegment {
  readonly conditions: ReadonlyArray<CompiledCondition>
  /** Its key lists; null for a segment that has none, whose conditions alone decide. */
  readonly lists: CompiledKeyLists | null
}

/**
 * A segment's key lists (Evaluator.ts, `segmentMatches`): the key read (the context key, or the
 * segment's `keyAttribute`) included is in, excluded is out, else the conditions decide (a segment
 * with lists and no conditions: out).
 */
export interface CompiledKeyLists {
  readonly included: KeySet | null
  readonly excluded: KeySet | null
  readonly isKey: boolean
  readonly attribute: string
  readonly ownOnly: boolean
  readonly read: PropertyReader
}

export interface CompiledRollout {
  readonly isKey: boolean
  readonly bucketBy: string
  readonly ownOnly: boolean
  readonly read: PropertyReader
  readonly bucketer: Bucketer
  /** The running weights in hash space (Bucketing.hashThreshold): the evaluator compares hashes directly. */
  readonly thresholds: ReadonlyArray<number>
  readonly results: ReadonlyArray<EvaluationResult>
}

export interface CompiledRule {
  /** The rule's id (its index as a string when it has none), for explain's trace. */
  readonly id: string
  readonly conditions: ReadonlyArray<CompiledCondition>
  /** Set for a rule that serves one variation; otherwise `rollout` is set. */
  readonly result: EvaluationResult | null
  readonly rollout: CompiledRollout | null
}

/** One prerequisite of an enabled flag, linked to the compiled flag it names. */
export interface CompiledPrerequisite {
  readonly flagKey: string
  readonly variationKey: string
  /** The prerequisite flag; null when the snapshot has no flag with that key (never met). Set by linking. */
  flag: CompiledFlag | null
  /** What the flag serves when this prerequisite is not met: its off variation, reason PREREQUISITE_FAILED. */
  readonly failed: EvaluationResult
}

/** A flag's rules as one generated function (jit/RuleChain.ts): the first serving rule's result, or null (fallthrough). */
export type RuleChain = (key: string | undefined, attributes: object | undefined) => EvaluationResult | null

export interface CompiledFlag {
  readonly key: string
  readonly enabled: boolean
  readonly off: EvaluationResult
  readonly fallthrough: EvaluationResult
  /** Checked in order before the rules; empty for a disabled or broken flag (they never check them). */
  readonly prerequisites: ReadonlyArray<CompiledPrerequisite>
  readonly rules: ReadonlyArray<CompiledRule>
  /** Set when the enabled flag cannot be evaluated: every evaluation answers this. */
  readonly broken: EvaluationResult | null
  /** Answered when the context is not an object with a string `key`. */
  readonly invalidContext: EvaluationResult
  /**
   * The rules as one generated function (jit/RuleChain.ts), made by the evaluator once the flag is
   * hot: undefined until then (and for a flag without rules), null where code generation is forbidden.
   */
  chain: RuleChain | null | undefined
  /** Evaluations so far while `chain` is undefined (the evaluator's count towards making it). */
  runs: number
}

export interface CompiledSnapshot {
  readonly environment: string
  readonly flags: ReadonlyMap<string, CompiledFlag>
  /** Flag keys in snapshot order (the order of `evaluateAll`). */
  readonly keys: ReadonlyArray<string>
  /** The compiled flags in the same order as `keys`. */
  readonly ordered: ReadonlyArray<CompiledFlag>
  /** Builds `evaluateAll`'s record as one object literal (see jit/RecordFactory.ts); null: use the loop. */
  readonly record: RecordBuilder<CompiledFlag, unknown, EvaluationResult> | null
}
