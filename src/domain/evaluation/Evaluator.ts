/**
 * Flag evaluation: synchronous, total, and the same function for the HTTP evaluation routes
 * (standalone or mounted), for in-process evaluation through the public `Evaluate` namespace
 * (Evaluate.ts) and for the client SDK, so local and remote evaluation cannot disagree. This
 * module evaluates compiled snapshots only; it does not load the regular expression engine, which
 * the client SDK loads on demand (conditions/RegexEngine.ts).
 *
 *   configuration disabled           -> OFF          (off variation)
 *   enabled, a rule matches          -> RULE_MATCH   (ruleId, ruleIndex; the rule's variation or rollout's)
 *   enabled, no rule matches         -> FALLTHROUGH  (default variation)
 *   definition cannot be evaluated   -> ERROR        (off variation when it exists, else value null)
 *
 * Hot path: every result a flag can return is precomputed and frozen by `compile`, so an
 * evaluation allocates nothing in the common case; conditions are pre-resolved (operators,
 * prepared values, segments), rollouts hash from a precomputed seed prefix, and nothing is
 * parsed, looked up by name or wrapped in a closure per call. See docs/evaluation.md.
 */
import { bucketValue, hashWith } from "./Bucketing.js"
import {
  type CompiledCondition,
  type CompiledFlag as CompiledFlagOf,
  type CompiledRollout,
  type CompiledSnapshot as CompiledSnapshotOf,
  errorResult,
  KIND_ATTRIBUTE,
  KIND_IN_SEGMENT
} from "./Compile.js"
import type { EvaluationContext } from "./EvaluationContext.js"
import type { EvaluationResult } from "./EvaluationResult.js"
import { testAttribute, testString } from "./Operators.js"
import type { PropertyReader } from "./PropertyReader.js"

// Aliases, not `export type { ... } from`: the declaration bundler turns a type-only re-export
// inside `export * as Evaluate` into a value (`typeof CompiledFlag`), which breaks hosts that
// type-check libraries (skipLibCheck: false). test/package/Package.test.ts checks it.
export type CompiledFlag = CompiledFlagOf
export type CompiledSnapshot = CompiledSnapshotOf

const hasOwn = Object.prototype.hasOwnProperty

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

const allMatch = (conditions: ReadonlyArray<CompiledCondition>, key: string | undefined, attributes: object | undefined): boolean => {
  for (let i = 0; i < conditions.length; i++) if (!matches(conditions[i]!, key, attributes)) return false
  return true
}

const matches = (c: CompiledCondition, key: string | undefined, attributes: object | undefined): boolean => {
  if (c.kind === KIND_ATTRIBUTE) {
    const value = lookup(c.isKey, c.attribute, c.ownOnly, c.read, key, attributes)
    // An absent attribute never matches, whatever `negate` says. JSON null counts as absent.
    if (value === undefined || value === null) return false
    if (c.stringShortcut && typeof value === "string") return testString(c.op, value, c.prepared) !== c.negate
    return testAttribute(c.op, value, c.prepared) !== c.negate
  }
  let inAny = false
  for (let i = 0; i < c.segments.length && !inAny; i++) inAny = allMatch(c.segments[i]!, key, attributes)
  return (c.kind === KIND_IN_SEGMENT ? inAny : !inAny) !== c.negate
}

/**
 * The rollout step, out of line so `evaluateFlag` stays small: the served slice's result, or null
 * when the rule does not apply (no bucket value: evaluation goes on to the next rule).
 */
const rolloutResult = (rollout: CompiledRollout, key: string | undefined, attributes: object | undefined): EvaluationResult | null => {
  const value = bucketValue(lookup(rollout.isKey, rollout.bucketBy, rollout.ownOnly, rollout.read, key, attributes))
  if (value === undefined) return null
  // The slice whose running weight first exceeds the bucket, compared in hash space (no division).
  const hash = hashWith(rollout.bucketer, value) >>> 0
  const thresholds = rollout.thresholds
  for (let i = 0; i < thresholds.length; i++) if (hash < thresholds[i]!) return rollout.results[i]!
  return null
}

const evaluateFlag = (flag: CompiledFlag, context: LocalContext): EvaluationResult => {
  if (!flag.enabled) return flag.off
  if (flag.broken !== null) return flag.broken
  if (typeof context !== "object" || context === null) return flag.invalidContext
  // An absent key (OpenFeature's missing targeting key) is evaluated as absent: conditions on
  // `key` and rollouts by `key` do not match. The HTTP endpoints that require a key check it first.
  const key = context.key
  if (typeof key !== "string" && key !== undefined) return flag.invalidContext
  const raw = context.attributes
  const attributes = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : undefined
  const rules = flag.rules
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!
    if (!allMatch(rule.conditions, key, attributes)) continue
    if (rule.result !== null) return rule.result
    const served = rolloutResult(rule.rollout!, key, attributes)
    if (served !== null) return served
  }
  return flag.fallthrough
}

const unexpected = (flagKey: string, e: unknown): EvaluationResult =>
  errorResult(String(flagKey), `EVALUATION_FAILED: ${e instanceof Error ? e.message : String(e)}`, undefined)

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
  try {
    const flag = compiled.flags.get(flagKey)
    if (flag === undefined) {
      return errorResult(String(flagKey), `FLAG_NOT_FOUND: no flag ${JSON.stringify(flagKey)} in environment ${JSON.stringify(compiled.environment)}`, undefined)
    }
    return evaluateFlag(flag, context)
  } catch (e) {
    // Reached only through hostile input (throwing getters, proxies); results stay total.
    return unexpected(flagKey, e)
  }
}

/** One flag of `evaluateAll`: a failure stays in its own result. */
const evaluateOne = (flag: CompiledFlag, context: unknown): EvaluationResult => {
  try {
    return evaluateFlag(flag, context as LocalContext)
  } catch (e) {
    return unexpected(flag.key, e)
  }
}

/**
 * Evaluates one compiled flag the caller already holds (the SDK indexes flags with what it needs
 * beside them, so it looks each up once). Never throws.
 */
export const evaluateCompiled = (flag: CompiledFlag, context: LocalContext): EvaluationResult => evaluateOne(flag, context)

/** Evaluates every flag of the snapshot, keyed by flag key, in snapshot order. Never throws. */
export const evaluateAll = (compiled: CompiledSnapshot, context: LocalContext): Record<string, EvaluationResult> => {
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
