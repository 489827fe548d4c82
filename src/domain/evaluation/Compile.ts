/**
 * Compiles a configuration snapshot (the `GET /v1/config` shape) once, so that evaluation
 * does no parsing, no lookups by name and no allocation: regexes compiled, `in` values in
 * Sets, segments resolved to their compiled conditions, groups to their compiled lists, rollouts to hash-space thresholds and
 * a precomputed hash prefix, and every result a flag can return built and frozen up front.
 *
 * The regular expression engine of `matches` is a parameter (conditions/RegexEngine.ts): the
 * server passes re2js loaded eagerly (`Evaluate.compile`), the client SDK the same engine loaded
 * on demand, so both compile through this one function.
 *
 * Compilation never throws. A flag whose definition cannot be evaluated (an unknown
 * variation, a missing segment, a rollout whose weights do not sum to TOTAL_WEIGHT, prerequisites
 * that form a cycle or nest too deep, ...) gets a precomputed ERROR result instead; a disabled
 * flag still serves its off variation.
 *
 * Prerequisites are linked to the compiled flags they name once every flag is compiled, after
 * definitions/PrerequisiteGraph.ts has turned every flag whose prerequisites cannot be evaluated
 * into an ERROR flag, so the evaluator follows links that always end, with bounded work.
 */
import type { RegexEngine } from "../conditions/RegexEngine.js"
import * as PrerequisiteGraph from "../definitions/PrerequisiteGraph.js"
import { TOTAL_WEIGHT } from "../definitions/RolloutWeight.js"
import { typeCheck as variationTypeCheck } from "../definitions/VariationValue.js"
import { type Bucketer, cumulativeWeights, hashThreshold, makeBucketer } from "./Bucketing.js"
import type { ConfigSnapshot } from "./ConfigSnapshot.js"
import { type CompiledSegments, compileSegments, isProblem, type KeyListSource } from "./CompileSegments.js"
import type { EvaluationResult, Reason } from "./EvaluationResult.js"
import { compileConditions, DefinitionError, fail, inheritable, isRecord } from "./CompileConditions.js"
import { propertyReader } from "./jit/PropertyReader.js"
import * as RecordFactory from "./jit/RecordFactory.js"
import {
  type CompiledCondition,
  type CompiledFlag,
  type CompiledPrerequisite,
  type CompiledRollout,
  type CompiledRule,
  type CompiledSnapshot,
  KIND_ATTRIBUTE,
  KIND_GROUP,
  KIND_IN_SEGMENT,
  KIND_NOT_IN_SEGMENT
} from "./Compiled.js"


const deepFreeze = <A>(value: A): A => {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/** Every result object is built here, so all share one shape (one hidden class for the JIT). */
export const makeResult = (flagKey: string, value: unknown, variationKey: string | null, reason: Reason): EvaluationResult =>
  Object.freeze({ flagKey, value, variationKey, reason: Object.freeze(reason) })

export const errorResult = (
  flagKey: string,
  error: string,
  fallback: { readonly key: string; readonly value: unknown } | undefined
): EvaluationResult =>
  makeResult(flagKey, fallback === undefined ? null : fallback.value, fallback === undefined ? null : fallback.key, {
    kind: "ERROR",
    error
  })

interface VariationRef {
  readonly key: string
  readonly value: unknown
}

/** The prerequisites of an enabled flag, not linked yet (absent means none). */
const compilePrerequisites = (raw: unknown, key: string, off: EvaluationResult, offVariation: VariationRef | undefined): Array<CompiledPrerequisite> => {
  if (raw === undefined) return []
  if (!Array.isArray(raw)) return fail("prerequisites is not an array")
  return raw.map((p: unknown, index): CompiledPrerequisite => {
    if (!isRecord(p) || typeof p.flagKey !== "string" || typeof p.variationKey !== "string") {
      return fail(`prerequisite ${index} needs a flagKey and a variationKey`)
    }
    // Without an off variation there is nothing to serve: the off result is then already an ERROR.
    const failed =
      offVariation === undefined ? off : makeResult(key, offVariation.value, offVariation.key, { kind: "PREREQUISITE_FAILED", prerequisiteKey: p.flagKey })
    return { flagKey: p.flagKey, variationKey: p.variationKey, flag: null, failed }
  })
}

const compileFlag = (raw: Record<string, unknown>, key: string, segments: CompiledSegments, regex: RegexEngine): CompiledFlag => {
  const variations = new Map<string, VariationRef>()
  const problems: Array<string> = []
  const typeCheck = variationTypeCheck(raw.type)
  if (typeCheck === undefined) problems.push(`unknown flag type ${JSON.stringify(raw.type)}`)
  if (Array.isArray(raw.variations)) {
    for (const v of raw.variations) {
      if (!isRecord(v) || typeof v.key !== "string") {
        problems.push("a variation has no key")
        continue
      }
      if (typeCheck !== undefined && !typeCheck.accepts(v.value)) problems.push(`variation ${JSON.stringify(v.key)} has a value of the wrong type`)
      if (!variations.has(v.key)) {
        // The served value is a private, frozen copy: callers can neither change the snapshot through it nor be changed by it.
        const value = typeof v.value === "object" && v.value !== null ? deepFreeze(structuredClone(v.value)) : v.value
        variations.set(v.key, { key: v.key, value })
      }
    }
  } else problems.push("variations is not an array")

  const offVariation = typeof raw.offVariationKey === "string" ? variations.get(raw.offVariationKey) : undefined
  const off =
    offVariation === undefined
      ? errorResult(key, `VARIATION_NOT_FOUND: the off variation ${JSON.stringify(raw.offVariationKey)} does not exist`, undefined)
      : problems.length > 0
        ? errorResult(key, `INVALID_DEFINITION: ${problems.join("; ")}`, offVariation)
        : makeResult(key, offVariation.value, offVariation.key, { kind: "OFF" })
  const invalidContext = errorResult(key, "INVALID_CONTEXT: the context must be an object whose key, when present, is a string", offVariation)
  const enabled = raw.enabled === true
  const brokenFlag = (error: string): CompiledFlag => {
    const broken = errorResult(key, error, offVariation)
    return { key, enabled, off: enabled ? broken : off, fallthrough: broken, prerequisites: [], rules: [], broken, invalidContext, chain: undefined, runs: 0 }
  }
  if (problems.length > 0) return brokenFlag(`INVALID_DEFINITION: ${problems.join("; ")}`)
  if (!enabled) return { key, enabled, off, fallthrough: off, prerequisites: [], rules: [], broken: null, invalidContext, chain: undefined, runs: 0 }

  const variation = (k: unknown, where: string): VariationRef =>
    (typeof k === "string" ? variations.get(k) : undefined) ??
    fail(`${where} names unknown variation ${JSON.stringify(k)}`, "VARIATION_NOT_FOUND")
  try {
    const fallthroughVariation = variation(raw.defaultVariationKey, "the default")
    const fallthrough = makeResult(key, fallthroughVariation.value, fallthroughVariation.key, { kind: "FALLTHROUGH" })
    const prerequisites = compilePrerequisites(raw.prerequisites, key, off, offVariation)
    const rawRules = Array.isArray(raw.rules) ? raw.rules : fail("rules is not an array")
    const rules = rawRules.map((rule: unknown, ruleIndex): CompiledRule => {
      if (!isRecord(rule)) return fail(`rule ${ruleIndex} is not an object`)
      const ruleId = typeof rule.id === "string" ? rule.id : String(ruleIndex)
      const where = `rule ${JSON.stringify(ruleId)}`
      const reason = (): Reason => ({ kind: "RULE_MATCH", ruleId, ruleIndex })
      let conditions: ReadonlyArray<CompiledCondition>
      try {
        conditions = compileConditions(rule.conditions, segments, regex)
      } catch (e) {
        throw e instanceof DefinitionError ? new DefinitionError(e.code, `${where}: ${e.message}`) : e
      }
      if ((rule.variationKey === undefined) === (rule.rollout === undefined)) {
        return fail(`${where} needs exactly one of variationKey and rollout`)
      }
      if (rule.variationKey !== undefined) {
        const v = variation(rule.variationKey, where)
        return { id: ruleId, conditions, result: makeResult(key, v.value, v.key, reason()), rollout: null }
      }
      const rollout = rule.rollout
      if (!isRecord(rollout) || !Array.isArray(rollout.variations) || rollout.variations.length === 0) {
        return fail(`${where} has a malformed rollout`)
      }
      const slices = rollout.variations.map((s: unknown) => {
        if (!isRecord(s) || typeof s.weight !== "number" || !Number.isInteger(s.weight) || s.weight < 0) {
          return fail(`${where} has a rollout weight that is not a non-negative integer`)
        }
        return { variation: variation(s.variationKey, `${where} rollout`), weight: s.weight }
      })
      const cumulative = cumulativeWeights(slices.map((s) => s.weight))
      if (cumulative[cumulative.length - 1] !== TOTAL_WEIGHT) {
        return fail(`${where} rollout weights sum to ${cumulative[cumulative.length - 1]}, not ${TOTAL_WEIGHT}`)
      }
      const bucketBy = typeof rollout.bucketBy === "string" ? rollout.bucketBy : "key"
      const seed = typeof rollout.seed === "string" ? rollout.seed : key
      return {
        id: ruleId,
        conditions,
        result: null,
        rollout: {
          isKey: bucketBy === "key",
          bucketBy,
          ownOnly: inheritable(bucketBy),
          read: propertyReader(bucketBy),
          bucketer: makeBucketer(seed),
          thresholds: cumulative.map(hashThreshold),
          results: slices.map((s) => makeResult(key, s.variation.value, s.variation.key, reason()))
        }
      }
    })
    return { key, enabled, off, fallthrough, prerequisites, rules, broken: null, invalidContext, chain: undefined, runs: 0 }
  } catch (e) {
    return brokenFlag(e instanceof DefinitionError ? `${e.code}: ${e.message}` : `INVALID_DEFINITION: ${String(e)}`)
  }
}

/** What a flag not compiled yet holds as `broken` (and its results): the evaluator settles it first. */
export const PENDING: EvaluationResult = makeResult("", null, null, { kind: "ERROR", error: "GENERAL: the flag is not compiled yet" })

/** How each flag of an on-demand compiled snapshot gets compiled, until it is. */
const settlers = new WeakMap<CompiledFlag, () => void>()

/**
 * Compiles `flag` now if it was left for later (`compileOnDemand`); a no-op for a compiled flag.
 * Never throws. The evaluator calls it when it meets a flag whose `broken` is `PENDING`; anything
 * else that reads a compiled flag's fields (not through `evaluate`) calls it first.
 */
export const settle = (flag: CompiledFlag): CompiledFlag => {
  if (flag.broken === PENDING) {
    const settler = settlers.get(flag)
    settlers.delete(flag)
    settler?.()
    // Unreachable unless the flag was made elsewhere: still never an endless wait.
    if (flag.broken === PENDING) {
      const broken = errorResult(flag.key, "INVALID_DEFINITION: the flag could not be compiled", undefined)
      Object.assign(flag, { off: broken, fallthrough: broken, broken, invalidContext: broken })
    }
  }
  return flag
}

interface Compilation {
  readonly compiled: CompiledSnapshot
  /** Every flag still to compile, with its definition. */
  readonly pending: ReadonlyArray<readonly [CompiledFlag, Record<string, unknown>]>
  /** Compiles one of `pending` into its place (never throws). */
  readonly fill: (stub: CompiledFlag, raw: Record<string, unknown>) => void
}

/**
 * The snapshot's flags as placeholders (one per key, first of duplicates), each compiled by `fill`
 * into the same object, so a prerequisite links to its flag's placeholder whenever either is compiled.
 *
 * A flag is compiled as `compileFlag` makes it; then, when it has prerequisites, the graph rule
 * (definitions/PrerequisiteGraph.ts) is checked from it over the other flags' prerequisites as they
 * compile (compiled for that only when needed, and once): a flag that breaks the rule (a cycle, too
 * deep, too much work) becomes an ERROR flag, the others link each prerequisite to its flag. Only
 * enabled, unbroken flags check prerequisites, so only their edges count. The verdict of a flag is a
 * function of the graph alone, so compiling flags in any order, or some never, answers the same.
 */
const prepare = (snapshot: ConfigSnapshot, regex: RegexEngine, keyLists?: KeyListSource): Compilation => {
  const flags = new Map<string, CompiledFlag>()
  const keys: Array<string> = []
  const pending: Array<readonly [CompiledFlag, Record<string, unknown>]> = []
  const raws = new Map<string, Record<string, unknown>>()
  let environment = ""
  let segments: CompiledSegments = new Map()
  try {
    if (!isRecord(snapshot)) {
      return { compiled: { environment, flags, keys, ordered: [], record: null }, pending, fill: () => undefined }
    }
    environment = typeof snapshot.environment === "string" ? snapshot.environment : ""
    segments = compileSegments(snapshot.segments, (raw) => compileConditions(raw, null, regex), keyLists)
    const rawFlags: ReadonlyArray<unknown> = Array.isArray(snapshot.flags) ? snapshot.flags : []
    for (const raw of rawFlags) {
      if (!isRecord(raw) || typeof raw.key !== "string" || flags.has(raw.key)) continue
      const key = raw.key
      // The shape every compiled flag has (compileFlag's), so filling it in keeps one hidden class.
      const stub: CompiledFlag = {
        key,
        enabled: true,
        off: PENDING,
        fallthrough: PENDING,
        prerequisites: [],
        rules: [],
        broken: PENDING,
        invalidContext: PENDING,
        chain: undefined,
        runs: 0
      }
      flags.set(key, stub)
      keys.push(key)
      raws.set(key, raw)
      pending.push([stub, raw])
    }
  } catch {
    // A hostile snapshot (throwing getters, proxies): keep the flags found so far.
  }

  /** Each flag as compileFlag makes it, prerequisites not checked nor linked; compiled once. */
  const unlinked = new Map<string, CompiledFlag>()
  const unlinkedOf = (key: string, raw: Record<string, unknown> | undefined = raws.get(key)): CompiledFlag | undefined => {
    let compiled = unlinked.get(key)
    if (compiled !== undefined || raw === undefined) return compiled
    try {
      compiled = compileFlag(raw, key, segments, regex)
    } catch (e) {
      // Defensive: compileFlag reports definition problems itself; anything else still yields an ERROR flag.
      const broken = errorResult(key, `INVALID_DEFINITION: ${e instanceof Error ? e.message : String(e)}`, undefined)
      compiled = { key, enabled: false, off: broken, fallthrough: broken, prerequisites: [], rules: [], broken, invalidContext: broken, chain: undefined, runs: 0 }
    }
    unlinked.set(key, compiled)
    return compiled
  }
  const verdict = PrerequisiteGraph.checker((flagKey) => unlinkedOf(flagKey)?.prerequisites.map((p) => p.flagKey))
  // The checker remembers verdicts, and a verdict's wording (which cycle it names) depends on which
  // flag the search started from: asked in snapshot order up to the flag, as if every flag were
  // compiled in order, the verdicts are the same whatever order flags are evaluated in.
  const position = new Map<string, number>()
  for (let i = 0; i < keys.length; i++) position.set(keys[i]!, i)
  let asked = 0
  /** Whether the flag may have prerequisites to check (only an enabled flag that names some does). */
  const mayRequire = (raw: Record<string, unknown>): boolean => {
    try {
      return raw.enabled === true && raw.prerequisites !== undefined
    } catch {
      return true
    }
  }
  const verdictOf = (key: string) => {
    const at = position.get(key) ?? -1
    for (; asked <= at; asked++) {
      const earlier = keys[asked]!
      if (mayRequire(raws.get(earlier)!) && unlinkedOf(earlier)!.prerequisites.length > 0) verdict(earlier)
    }
    return verdict(key)
  }

  const fill = (stub: CompiledFlag, raw: Record<string, unknown>): void => {
    const key = stub.key
    const flag = unlinkedOf(key, raw)!
    const problem = flag.prerequisites.length === 0 ? null : verdictOf(key).problem
    if (problem !== null) {
      const broken = errorResult(key, `INVALID_DEFINITION: ${problem}`, flag.off.variationKey === null ? undefined : { key: flag.off.variationKey, value: flag.off.value })
      Object.assign(stub, { ...flag, off: broken, fallthrough: broken, prerequisites: [], rules: [], broken, chain: undefined, runs: 0 })
      return
    }
    Object.assign(stub, flag)
    for (const prerequisite of stub.prerequisites) prerequisite.flag = flags.get(prerequisite.flagKey) ?? null
  }

  const ordered = keys.map((key) => flags.get(key)!)
  return { compiled: { environment, flags, keys, ordered, record: RecordFactory.make(keys) }, pending, fill }
}

/**
 * Compiles a snapshot once for many evaluations, `matches` patterns with `regex`, segments' key
 * lists from `keyLists` (CompileSegments.ts). Never throws, whatever the input.
 */
export const compile = (snapshot: ConfigSnapshot, regex: RegexEngine, keyLists?: KeyListSource): CompiledSnapshot => {
  const { compiled, fill, pending } = prepare(snapshot, regex, keyLists)
  for (const [stub, raw] of pending) fill(stub, raw)
  return compiled
}

/**
 * `compile`, each flag compiled when first evaluated (or `settle`d) rather than all at once: what
 * a server wants for a snapshot of thousands of flags of which a request names one. The same answers
 * as `compile` in any order of evaluation. The snapshot's flags are read when their turn comes, so
 * they must not change meanwhile (the snapshots a server reads are never changed). Never throws.
 */
export const compileOnDemand = (snapshot: ConfigSnapshot, regex: RegexEngine, keyLists?: KeyListSource): CompiledSnapshot => {
  const { compiled, fill, pending } = prepare(snapshot, regex, keyLists)
  for (const [stub, raw] of pending) settlers.set(stub, () => fill(stub, raw))
  return compiled
}
