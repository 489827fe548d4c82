/**
 * Flag evaluation: synchronous, total, and the one function behind the HTTP routes, in-process
 * evaluation and the client SDK, so local and remote answers cannot disagree. It evaluates
 * compiled snapshots only (every result precomputed by `compile`: no allocation in the common case);
 * an optional `EvaluationObserver` sees each step, which is how Explain.ts builds its trace.
 * Reasons, prerequisites and the hot path: docs/guide/evaluation.md.
 */
import { bucketValue, hashWith } from "./Bucketing.js"
import {
  type CompiledCondition,
  type CompiledFlag as CompiledFlagOf,
  type CompiledPrerequisite,
  type CompiledRollout,
  type CompiledRule,
  type CompiledSegment,
  type CompiledSnapshot as CompiledSnapshotOf,
  KIND_ATTRIBUTE,
  KIND_GROUP,
  KIND_IN_SEGMENT
} from "./Compiled.js"
import { errorResult, PENDING, settle } from "./Compile.js"
import * as RegexBudget from "../conditions/RegexBudget.js"
import type { EvaluationContext } from "./EvaluationContext.js"
import type { EvaluationResult } from "./EvaluationResult.js"
import { testAttribute, testString } from "./Operators.js"
import type { PropertyReader } from "./jit/PropertyReader.js"
import * as RuleChain from "./jit/RuleChain.js"

// Aliases, not `export type { ... } from`: the declaration bundler turns a type-only re-export
// inside `export * as Evaluate` into a value (`typeof CompiledFlag`), which breaks hosts that
// type-check libraries (skipLibCheck: false). test/package/Package.test.ts checks it.
export type CompiledFlag = CompiledFlagOf
export type CompiledSnapshot = CompiledSnapshotOf

const hasOwn = Object.prototype.hasOwnProperty

/**
 * What explain listens to while a flag is evaluated, in evaluation order. Calls nest: a
 * prerequisite's own steps come between its `prerequisiteStart` and `prerequisiteEnd`, a segment's
 * conditions between `segmentStart` and `segmentEnd`, a group's list's between `listStart` and `listEnd`.
 */
export interface EvaluationObserver {
  readonly prerequisiteStart: (prerequisite: CompiledPrerequisite) => void
  /** `result` is null when the prerequisite flag does not exist. */
  readonly prerequisiteEnd: (prerequisite: CompiledPrerequisite, result: EvaluationResult | null, met: boolean) => void
  readonly ruleStart: (rule: CompiledRule, index: number) => void
  /** An attribute condition: the value read (undefined when absent) and whether it matched. */
  readonly condition: (condition: CompiledCondition, value: unknown, matched: boolean) => void
  readonly segmentConditionStart: (condition: CompiledCondition) => void
  readonly segmentStart: (segmentKey: string) => void
  /** A segment decided by its key lists (the key read is in `included`, or in `excluded`), before any of its conditions. */
  readonly segmentListed: (list: "included" | "excluded") => void
  readonly segmentEnd: (matched: boolean) => void
  readonly segmentConditionEnd: (matched: boolean) => void
  /** A group (`anyOf`): each list tried comes between `listStart` and `listEnd`, its conditions between them. */
  readonly groupStart: (group: CompiledCondition) => void
  readonly listStart: (index: number) => void
  readonly listEnd: (matched: boolean) => void
  readonly groupEnd: (matched: boolean) => void
  /** A rollout of a rule whose conditions matched: the bucket value read, its hash (null without one) and the served result. */
  readonly rollout: (rollout: CompiledRollout, value: unknown, hash: number | null, served: EvaluationResult | null) => void
  /** `matched`: every condition of the rule matched. */
  readonly ruleEnd: (matched: boolean) => void
}

type Observer = EvaluationObserver | undefined

/**
 * What `evaluate` accepts: a context whose key may be absent (OpenFeature's missing targeting
 * key, the SDK's anonymous evaluation). The HTTP endpoints that require a key decode it first.
 */
export type LocalContext = Omit<EvaluationContext, "key"> & { readonly key?: string | undefined }

/**
 * The value of an attribute, or undefined when absent. `key` is the context key; other names
 * read `attributes`, own properties only for names that plain objects inherit (`constructor`,
 * `__proto__`, ...: precomputed as `ownOnly`, so ordinary names skip the check).
 */
const lookup = (
  isKey: boolean,
  name: string,
  ownOnly: boolean,
  read: PropertyReader,
  key: string | undefined,
  attributes: object | undefined
): unknown => {
  if (isKey) return key
  if (attributes === undefined || (ownOnly && !hasOwn.call(attributes, name))) return undefined
  return read(attributes)
}

const allMatch = (conditions: ReadonlyArray<CompiledCondition>, key: string | undefined, attributes: object | undefined, observer: Observer): boolean => {
  for (let i = 0; i < conditions.length; i++) if (!matches(conditions[i]!, key, attributes, observer)) return false
  return true
}

const matches = (c: CompiledCondition, key: string | undefined, attributes: object | undefined, observer: Observer): boolean => {
  if (c.kind === KIND_ATTRIBUTE) {
    const value = lookup(c.isKey, c.attribute, c.ownOnly, c.read, key, attributes)
    // An absent attribute never matches, whatever `negate` says. JSON null counts as absent.
    const matched =
      value === undefined || value === null
        ? false
        : c.stringShortcut && typeof value === "string"
          ? testString(c.op, value, c.prepared) !== c.negate
          : testAttribute(c.op, value, c.prepared) !== c.negate
    if (observer !== undefined) observer.condition(c, value, matched)
    return matched
  }
  if (c.kind === KIND_GROUP) return anyListMatches(c, key, attributes, observer)
  if (observer !== undefined) observer.segmentConditionStart(c)
  let inAny = false
  for (let i = 0; i < c.segments.length && !inAny; i++) {
    if (observer !== undefined) observer.segmentStart(c.segmentKeys[i]!)
    const segment = c.segments[i]!
    inAny = segment.lists === null ? allMatch(segment.conditions, key, attributes, observer) : listedSegmentMatches(segment, key, attributes, observer)
    if (observer !== undefined) observer.segmentEnd(inAny)
  }
  const matched = (c.kind === KIND_IN_SEGMENT ? inAny : !inAny) !== c.negate
  if (observer !== undefined) observer.segmentConditionEnd(matched)
  return matched
}

/**
 * A segment with key lists: the key read (a string; the context key unless the segment names a
 * `keyAttribute`) in `included` is in, in `excluded` is out; otherwise its conditions decide, and
 * a segment with lists and no conditions keeps everyone else out. Each list is one hash and one
 * probe (KeySet.ts).
 */
const listedSegmentMatches = (segment: CompiledSegment, key: string | undefined, attributes: object | undefined, observer: Observer): boolean => {
  const lists = segment.lists!
  const value = lookup(lists.isKey, lists.attribute, lists.ownOnly, lists.read, key, attributes)
  if (typeof value === "string") {
    if (lists.included !== null && lists.included.has(value)) {
      if (observer !== undefined) observer.segmentListed("included")
      return true
    }
    if (lists.excluded !== null && lists.excluded.has(value)) {
      if (observer !== undefined) observer.segmentListed("excluded")
      return false
    }
  }
  return segment.conditions.length > 0 && allMatch(segment.conditions, key, attributes, observer)
}

/** A group: its lists in order, until one whose every condition matches. */
const anyListMatches = (c: CompiledCondition, key: string | undefined, attributes: object | undefined, observer: Observer): boolean => {
  if (observer !== undefined) observer.groupStart(c)
  const lists = c.lists
  let matched = false
  for (let i = 0; i < lists.length && !matched; i++) {
    if (observer !== undefined) observer.listStart(i)
    matched = allMatch(lists[i]!, key, attributes, observer)
    if (observer !== undefined) observer.listEnd(matched)
  }
  if (observer !== undefined) observer.groupEnd(matched)
  return matched
}

/**
 * The rollout step, out of line so `evaluateFlag` stays small: the served slice's result, or null
 * when the rule does not apply (no bucket value: evaluation goes on to the next rule).
 */
const rolloutResult = (rollout: CompiledRollout, key: string | undefined, attributes: object | undefined, observer: Observer): EvaluationResult | null => {
  const read = lookup(rollout.isKey, rollout.bucketBy, rollout.ownOnly, rollout.read, key, attributes)
  const value = bucketValue(read)
  if (value === undefined) {
    if (observer !== undefined) observer.rollout(rollout, read, null, null)
    return null
  }
  // The slice whose running weight first exceeds the bucket, compared in hash space (no division).
  const hash = hashWith(rollout.bucketer, value) >>> 0
  const thresholds = rollout.thresholds
  let served: EvaluationResult | null = null
  for (let i = 0; i < thresholds.length; i++) {
    if (hash < thresholds[i]!) {
      served = rollout.results[i]!
      break
    }
  }
  if (observer !== undefined) observer.rollout(rollout, read, hash, served)
  return served
}

/**
 * The unit a rollout buckets `context` into: its `bucketBy` value as the rollout step reads it
 * (the context key by default), as text; undefined when it has none (the rule then serves no one).
 * What an exposure names as its unit, so an SDK's and the server's exposures agree (the SDK
 * holds the measured rule's rollout; `rolloutUnit` below finds it by rule id).
 */
export const unitOf = (rollout: CompiledRollout, context: LocalContext): string | undefined => {
  const raw = context.attributes
  const attributes = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : undefined
  const key = typeof context.key === "string" ? context.key : undefined
  return bucketValue(lookup(rollout.isKey, rollout.bucketBy, rollout.ownOnly, rollout.read, key, attributes))
}

/**
 * The prerequisites step, out of line like the rollout: null when every prerequisite is met, else
 * the flag's PREREQUISITE_FAILED result for the first that is not. Recursion ends: `compile` breaks
 * every flag whose prerequisites form a cycle or nest too deep.
 */
const failedPrerequisite = (prerequisites: ReadonlyArray<CompiledPrerequisite>, context: LocalContext, observer: Observer): EvaluationResult | null => {
  for (let i = 0; i < prerequisites.length; i++) {
    const prerequisite = prerequisites[i]!
    if (observer !== undefined) observer.prerequisiteStart(prerequisite)
    const result = prerequisite.flag === null ? null : evaluateFlag(prerequisite.flag, context, observer)
    const met = result !== null && result.reason.kind !== "ERROR" && result.variationKey === prerequisite.variationKey
    if (observer !== undefined) observer.prerequisiteEnd(prerequisite, result, met)
    if (!met) return prerequisite.failed
  }
  return null
}

/** The walk's check of one condition, which a rule chain calls for conditions it does not write out. */
export const checkCondition: RuleChain.ConditionCheck = (c, key, attributes) => matches(c, key, attributes, undefined)

const evaluateFlag = (flag: CompiledFlag, context: LocalContext, observer: Observer): EvaluationResult => {
  if (!flag.enabled) return flag.off
  // A flag of `compileOnDemand` not compiled yet holds PENDING here: compiled now, then evaluated.
  if (flag.broken !== null) return flag.broken === PENDING ? evaluateFlag(settle(flag), context, observer) : flag.broken
  if (typeof context !== "object" || context === null) return flag.invalidContext
  // An absent key (OpenFeature's missing targeting key) is evaluated as absent: conditions on
  // `key` and rollouts by `key` do not match. The HTTP endpoints that require a key check it first.
  const key = context.key
  if (typeof key !== "string" && key !== undefined) return flag.invalidContext
  const raw = context.attributes
  const attributes = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : undefined
  if (flag.prerequisites.length !== 0) {
    const failed = failedPrerequisite(flag.prerequisites, context, observer)
    if (failed !== null) return failed
  }
  if (flag.rules.length === 0) return flag.fallthrough
  // The rules as one generated function once the flag is hot (jit/RuleChain.ts); the walk answers the same.
  const chain = flag.chain
  if (chain !== null && chain !== undefined && observer === undefined) {
    const served = chain(key, attributes)
    return served === null ? flag.fallthrough : served
  }
  return walkRules(flag, key, attributes, observer)
}

/** The rules walked in order (out of line, so `evaluateFlag` stays small for a hot flag's chain). */
const walkRules = (flag: CompiledFlag, key: string | undefined, attributes: object | undefined, observer: Observer): EvaluationResult => {
  if (observer === undefined && flag.chain === undefined) {
    const chain = RuleChain.warm(flag, checkCondition)
    if (chain !== null && chain !== undefined) {
      const served = chain(key, attributes)
      return served === null ? flag.fallthrough : served
    }
  }
  const rules = flag.rules
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!
    if (observer !== undefined) observer.ruleStart(rule, i)
    const matched = allMatch(rule.conditions, key, attributes, observer)
    if (observer !== undefined) observer.ruleEnd(matched)
    if (!matched) continue
    if (rule.result !== null) return rule.result
    const served = rolloutResult(rule.rollout!, key, attributes, observer)
    if (served !== null) return served
  }
  return flag.fallthrough
}

/**
 * A flag whose evaluation threw: the `matches` budget spent (RegexBudget.ts), which serves the
 * flag's off variation like any ERROR of a definition, or hostile input (value null).
 */
const unexpected = (flagKey: string, e: unknown, flag: CompiledFlag | undefined): EvaluationResult => {
  if (!(e instanceof RegexBudget.RegexBudgetExceeded)) {
    return errorResult(String(flagKey), `EVALUATION_FAILED: ${e instanceof Error ? e.message : String(e)}`, undefined)
  }
  const off = flag?.off
  return errorResult(String(flagKey), e.message, off === undefined || off.variationKey === null ? undefined : { key: off.variationKey, value: off.value })
}

/** True when the snapshot has a flag with this key. */
export const hasFlag = (compiled: CompiledSnapshot, flagKey: string): boolean => {
  try {
    return compiled.flags.has(flagKey)
  } catch {
    return false
  }
}

/** Evaluates one flag for one context. Never throws; an unknown flag is an ERROR result with value null. */
export const evaluate = (compiled: CompiledSnapshot, flagKey: string, context: LocalContext): EvaluationResult => {
  // `evaluateObserved` without an observer, written out: the hot path stays one small function.
  RegexBudget.reset()
  let flag: CompiledFlag | undefined
  try {
    flag = compiled.flags.get(flagKey)
    return flag === undefined ? notFound(compiled, flagKey) : evaluateFlag(flag, context, undefined)
  } catch (e) {
    return unexpected(flagKey, e, flag)
  }
}

const notFound = (compiled: CompiledSnapshot, flagKey: string): EvaluationResult =>
  errorResult(String(flagKey), `FLAG_NOT_FOUND: no flag ${JSON.stringify(flagKey)} in environment ${JSON.stringify(compiled.environment)}`, undefined)

/**
 * `evaluate`, with every step reported to `observer` (explain, Explain.ts). A separate entry so the
 * public `evaluate` keeps its three arguments; the work is the same function.
 */
export const evaluateObserved = (compiled: CompiledSnapshot, flagKey: string, context: LocalContext, observer: EvaluationObserver | undefined): EvaluationResult => {
  RegexBudget.reset()
  let flag: CompiledFlag | undefined
  try {
    flag = compiled.flags.get(flagKey)
    return flag === undefined ? notFound(compiled, flagKey) : evaluateFlag(flag, context, observer)
  } catch (e) {
    // The `matches` budget spent, or hostile input (throwing getters, proxies); results stay total.
    return unexpected(flagKey, e, flag)
  }
}

/** One flag of `evaluateAll`: a failure stays in its own result. */
const evaluateOne = (flag: CompiledFlag, context: unknown): EvaluationResult => {
  try {
    return evaluateFlag(flag, context as LocalContext, undefined)
  } catch (e) {
    return unexpected(flag.key, e, flag)
  }
}

/**
 * Evaluates one compiled flag the caller already holds (the SDK indexes flags with what it needs
 * beside them, so it looks each up once). Never throws.
 */
export const evaluateCompiled = (flag: CompiledFlag, context: LocalContext): EvaluationResult => {
  RegexBudget.reset()
  return evaluateOne(flag, context)
}

/**
 * Evaluates `flags` in order for one request, handing each result to `visit` (for a bulk answer
 * written flag by flag, without building the record `evaluateAll` returns). The flags share one
 * `matches` budget, as in `evaluateAll`; `evaluateCompiled` in a loop would give each its own.
 * Never throws (unless `visit` does).
 */
export const evaluateEach = (
  flags: ReadonlyArray<CompiledFlag>,
  context: LocalContext,
  visit: (flag: CompiledFlag, result: EvaluationResult, index: number) => void
): void => {
  RegexBudget.reset()
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!
    visit(flag, evaluateOne(flag, context), i)
  }
}

/** Evaluates every flag of the snapshot, keyed by flag key, in snapshot order. Never throws. */
export const evaluateAll = (compiled: CompiledSnapshot, context: LocalContext): Record<string, EvaluationResult> => {
  // One budget for the whole request (RegexBudget.ts): the flags are evaluated in snapshot order.
  RegexBudget.reset()
  const out: Record<string, EvaluationResult> = {}
  try {
    const ordered = compiled.ordered
    if (compiled.record !== null) return compiled.record(evaluateOne, ordered, context)
    for (let i = 0; i < ordered.length; i++) {
      const flag = ordered[i]!
      const result = evaluateOne(flag, context)
      if (flag.key === "__proto__") {
        Object.defineProperty(out, flag.key, { value: result, enumerable: true, writable: true, configurable: true })
      } else out[flag.key] = result
    }
  } catch {
    // A malformed compiled snapshot: return what was evaluated.
  }
  return out
}

/**
 * The unit rule `ruleId`'s rollout buckets `context` by (the bucket value of its `bucketBy`
 * attribute, the context key by default): what an experiment counts as one unit. Undefined when
 * the flag has no such rule with a rollout, or the context no bucket value for it. `ruleIndex`
 * (a result's `reason.ruleIndex`) finds the rule without a search when it is that rule.
 */
export const rolloutUnit = (flag: CompiledFlag, ruleId: string, context: LocalContext, ruleIndex?: number): string | undefined => {
  settle(flag)
  const indexed = ruleIndex === undefined ? undefined : flag.rules[ruleIndex]
  const rollout = (indexed !== undefined && indexed.id === ruleId ? indexed : flag.rules.find((rule) => rule.id === ruleId))?.rollout
  return rollout === null || rollout === undefined ? undefined : unitOf(rollout, context)
}
