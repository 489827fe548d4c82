/**
 * Pure validation of flag, targeting and segment input. Every function returns every
 * problem it finds, each with its JSON path (e.g. `variations[1].value`,
 * `rules[0].rollout.variations`); an empty array means the input is acceptable.
 */
import { isSegmentOperator } from "../conditions/OperatorTable.js"
import { type ConditionOrGroup, plainConditions } from "./Condition.js"
import type { Problem as ProblemOf } from "../Errors.js"
import type { CreateFlagInput, FlagType, Variation } from "./Flag.js"
import { KEY_PATTERN } from "./Ids.js"
import type { CreateSegmentInput } from "./Segment.js"
import type { EnvironmentConfig, RuleInput, TargetingInput } from "./Targeting.js"
import { TOTAL_WEIGHT } from "./RolloutWeight.js"
import { typeCheck, VALUE_TYPES } from "./VariationValue.js"

// An alias, not `export type { ... } from`: see CompiledFlag in evaluation/Evaluate.ts.
export type Problem = ProblemOf
export { validateConditions, validateSegmentConditions } from "./ValidateConditions.js"
import { ATTRIBUTE_NAME_MAX, countProblem, validateConditions, validateSegmentConditions } from "./ValidateConditions.js"

export { TOTAL_WEIGHT } from "./RolloutWeight.js"
export const SEGMENT_NAME_MAX = 120
export const SEGMENT_DESCRIPTION_MAX = 500

const KEY_MESSAGE = "must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
const isKey = (u: unknown): u is string => typeof u === "string" && KEY_PATTERN.test(u)
const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const valueProblem = (type: FlagType, value: unknown): string | undefined => {
  if (value === undefined) return "is required"
  const check = typeCheck(type)
  return check === undefined || check.accepts(value) ? undefined : check.problem
}

/** Variations agree with the flag's type, have well-formed unique keys, and there is at least one. */
export const validateVariations = (
  type: FlagType,
  variations: ReadonlyArray<Variation>,
  path = "variations"
): ReadonlyArray<Problem> => {
  if (!Array.isArray(variations)) return [{ path, message: "must be an array" }]
  const problems: Array<Problem> = []
  if (variations.length === 0) problems.push({ path, message: "at least one variation is required" })
  const seen = new Set<string>()
  variations.forEach((v, i) => {
    const at = `${path}[${i}]`
    if (!isRecord(v)) {
      problems.push({ path: at, message: "must be an object" })
      return
    }
    if (!isKey(v.key)) problems.push({ path: `${at}.key`, message: KEY_MESSAGE })
    else if (seen.has(v.key)) problems.push({ path: `${at}.key`, message: `duplicate variation key ${JSON.stringify(v.key)}` })
    else seen.add(v.key)
    const message = valueProblem(type, v.value)
    if (message !== undefined) problems.push({ path: `${at}.value`, message })
    if (v.name !== undefined && typeof v.name !== "string") problems.push({ path: `${at}.name`, message: "must be a string" })
  })
  return problems
}

/** Body of a flag create: key, type and variations. */
export const validateCreateFlag = (input: CreateFlagInput): ReadonlyArray<Problem> => {
  if (!isRecord(input)) return [{ path: "", message: "must be an object" }]
  const problems: Array<Problem> = []
  if (!isKey(input.key)) problems.push({ path: "key", message: KEY_MESSAGE })
  if (input.name !== undefined && typeof input.name !== "string") problems.push({ path: "name", message: "must be a string" })
  if (input.description !== undefined && input.description !== null && typeof input.description !== "string") {
    problems.push({ path: "description", message: "must be a string" })
  }
  if (typeCheck(input.type) === undefined) {
    problems.push({ path: "type", message: `must be one of ${Object.keys(VALUE_TYPES).join(", ")}` })
    return problems
  }
  return problems.concat(validateVariations(input.type, input.variations))
}

const validateRollout = (rollout: unknown, path: string, variationKeys: ReadonlySet<string>): Array<Problem> => {
  if (!isRecord(rollout)) return [{ path, message: "must be an object" }]
  const problems: Array<Problem> = []
  if (rollout.bucketBy !== undefined && (typeof rollout.bucketBy !== "string" || rollout.bucketBy.length === 0)) {
    problems.push({ path: `${path}.bucketBy`, message: "must be a non-empty attribute name" })
  }
  if (rollout.seed !== undefined && typeof rollout.seed !== "string") {
    problems.push({ path: `${path}.seed`, message: "must be a string" })
  }
  const slices = rollout.variations
  if (!Array.isArray(slices)) return [...problems, { path: `${path}.variations`, message: "must be an array" }]
  if (slices.length === 0) problems.push({ path: `${path}.variations`, message: "must name at least one variation" })
  let sum = 0
  let weightsValid = true
  const seen = new Set<string>()
  slices.forEach((slice: unknown, i) => {
    const at = `${path}.variations[${i}]`
    if (!isRecord(slice)) {
      problems.push({ path: at, message: "must be an object" })
      weightsValid = false
      return
    }
    if (typeof slice.variationKey !== "string" || !variationKeys.has(slice.variationKey)) {
      problems.push({ path: `${at}.variationKey`, message: `unknown variation ${JSON.stringify(slice.variationKey)}` })
    } else if (seen.has(slice.variationKey)) {
      problems.push({ path: `${at}.variationKey`, message: `variation ${JSON.stringify(slice.variationKey)} appears twice` })
    } else seen.add(slice.variationKey)
    const w = slice.weight
    if (typeof w !== "number" || !Number.isInteger(w) || w < 0 || w > TOTAL_WEIGHT) {
      problems.push({ path: `${at}.weight`, message: `must be an integer from 0 to ${TOTAL_WEIGHT}` })
      weightsValid = false
    } else sum += w
  })
  if (weightsValid && slices.length > 0 && sum !== TOTAL_WEIGHT) {
    problems.push({ path: `${path}.variations`, message: `weights must sum to ${TOTAL_WEIGHT} (got ${sum})` })
  }
  return problems
}

const validateRule = (
  rule: RuleInput,
  path: string,
  variationKeys: ReadonlySet<string>,
  segmentKeys: ReadonlySet<string>
): Array<Problem> => {
  if (!isRecord(rule)) return [{ path, message: "must be an object" }]
  const problems: Array<Problem> = []
  if (rule.id !== undefined && !isKey(rule.id)) problems.push({ path: `${path}.id`, message: KEY_MESSAGE })
  if (rule.name !== undefined && typeof rule.name !== "string") problems.push({ path: `${path}.name`, message: "must be a string" })
  const hasKey = rule.variationKey !== undefined
  const hasRollout = rule.rollout !== undefined
  if (hasKey === hasRollout) {
    problems.push({ path, message: "exactly one of variationKey and rollout is required" })
  } else if (hasKey) {
    if (typeof rule.variationKey !== "string" || !variationKeys.has(rule.variationKey)) {
      problems.push({ path: `${path}.variationKey`, message: `unknown variation ${JSON.stringify(rule.variationKey)}` })
    }
  } else {
    problems.push(...validateRollout(rule.rollout, `${path}.rollout`, variationKeys))
  }
  problems.push(...validateConditions(rule.conditions, segmentKeys, `${path}.conditions`))
  return problems
}

/**
 * Body of PUT targeting for one flag: default and off variations exist, every rule names
 * existing variations (or a valid rollout), rule ids are unique, conditions are well formed.
 */
export const validateTargeting = (
  flag: { readonly key: string; readonly type: FlagType; readonly variations: ReadonlyArray<Variation> },
  input: TargetingInput,
  segmentKeys: ReadonlySet<string>
): ReadonlyArray<Problem> => {
  if (!isRecord(input)) return [{ path: "", message: "must be an object" }]
  const problems: Array<Problem> = []
  const variationKeys = new Set(flag.variations.map((v) => v.key))
  if (!isKey(input.environment)) problems.push({ path: "environment", message: KEY_MESSAGE })
  if (typeof input.enabled !== "boolean") problems.push({ path: "enabled", message: "must be a boolean" })
  for (const field of ["defaultVariationKey", "offVariationKey"] as const) {
    const key = input[field]
    if (typeof key !== "string" || !variationKeys.has(key)) {
      problems.push({ path: field, message: `unknown variation ${JSON.stringify(key)}` })
    }
  }
  if (!Array.isArray(input.rules)) {
    problems.push({ path: "rules", message: "must be an array" })
    return problems
  }
  const tooMany = countProblem(input.rules, "rules", "rulesPerConfiguration")
  if (tooMany.length > 0) return [...problems, ...tooMany]
  const ids = new Set<string>()
  input.rules.forEach((rule, i) => {
    problems.push(...validateRule(rule, `rules[${i}]`, variationKeys, segmentKeys))
    if (isRecord(rule) && typeof rule.id === "string") {
      if (ids.has(rule.id)) problems.push({ path: `rules[${i}].id`, message: `duplicate rule id ${JSON.stringify(rule.id)}` })
      ids.add(rule.id)
    }
  })
  return problems
}

/** Body of a segment create (also usable for a full replacement): key, name, description, conditions. */
export const validateCreateSegment = (input: CreateSegmentInput): ReadonlyArray<Problem> => {
  if (!isRecord(input)) return [{ path: "", message: "must be an object" }]
  const problems: Array<Problem> = []
  if (!isKey(input.key)) problems.push({ path: "key", message: KEY_MESSAGE })
  return problems.concat(validateSegmentFields(input))
}

/** The optional fields of a segment create or patch: name 1..120, description <= 500, conditions, keyAttribute. */
export const validateSegmentFields = (input: {
  readonly name?: unknown
  readonly description?: unknown
  readonly conditions?: unknown
  readonly keyAttribute?: unknown
}): ReadonlyArray<Problem> => {
  const problems: Array<Problem> = []
  if (input.keyAttribute !== undefined) {
    // The same names a condition's attribute may take (ValidateConditions.ts).
    if (typeof input.keyAttribute !== "string" || input.keyAttribute.length === 0) {
      problems.push({ path: "keyAttribute", message: "must be a non-empty attribute name (`key` for the context key)" })
    } else if (input.keyAttribute.length > ATTRIBUTE_NAME_MAX) {
      problems.push({ path: "keyAttribute", message: `must be at most ${ATTRIBUTE_NAME_MAX} characters` })
    }
  }
  if (input.name !== undefined) {
    if (typeof input.name !== "string" || input.name.length < 1 || input.name.length > SEGMENT_NAME_MAX) {
      problems.push({ path: "name", message: `must be a string of 1 to ${SEGMENT_NAME_MAX} characters` })
    }
  }
  if (input.description !== undefined && input.description !== null) {
    if (typeof input.description !== "string" || input.description.length > SEGMENT_DESCRIPTION_MAX) {
      problems.push({ path: "description", message: `must be a string of at most ${SEGMENT_DESCRIPTION_MAX} characters` })
    }
  }
  if (input.conditions !== undefined) {
    problems.push(...validateSegmentConditions(input.conditions as never))
  }
  return problems
}

/** Every variation key that a configuration names (default, off, rules, rollouts): these may not be removed. */
export const variationKeysInUse = (configs: ReadonlyArray<EnvironmentConfig>): ReadonlySet<string> => {
  const keys = new Set<string>()
  for (const config of configs) {
    keys.add(config.defaultVariationKey)
    keys.add(config.offVariationKey)
    for (const rule of config.rules) {
      if (rule.variationKey !== undefined) keys.add(rule.variationKey)
      if (rule.rollout !== undefined) for (const slice of rule.rollout.variations) keys.add(slice.variationKey)
    }
  }
  return keys
}

/** Segment keys that rules reference (`inSegment` / `notInSegment` values), in groups too. */
export const segmentKeysOfRules = (rules: ReadonlyArray<{ readonly conditions: ReadonlyArray<ConditionOrGroup> }>): ReadonlySet<string> => {
  const keys = new Set<string>()
  for (const rule of rules) {
    for (const c of plainConditions(rule.conditions)) {
      if (isSegmentOperator(c.operator)) {
        for (const v of c.values) if (typeof v === "string") keys.add(v)
      }
    }
  }
  return keys
}

/** Segment keys that the configurations' rules reference, in groups too (a segment in use cannot be deleted). */
export const segmentKeysInUse = (configs: ReadonlyArray<EnvironmentConfig>): ReadonlySet<string> =>
  segmentKeysOfRules(configs.flatMap((config) => config.rules))
