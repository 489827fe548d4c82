/**
 * flagd's `fractional` as a Flagport percentage rollout with the same percentages. The buckets
 * differ: flagd hashes `flagKey + targetingKey` (or the bucketing value) onto its weights, Flagport
 * hashes `seed.value` onto 100000 buckets (docs/guide/evaluation.md), so an imported rollout serves each
 * variant to the same share of contexts, not to the same contexts.
 *
 * Weights become thousandths of a percent summing to 100000, each rounded by the largest-remainder
 * method (so a third is 33.333%, at most 0.001% from flagd's share). What flagd serves when it
 * cannot bucket a context is kept exactly: its default variant when the bucketing value is absent
 * (or not a string), and, for the `cat` of `$flagd.flagKey` with an attribute that flagd's
 * documentation suggests, the one bucket flagd computes without the attribute: JSONLogic's `cat`
 * skips a null, so flagd hashes the flag key alone (`CAT_OF_ABSENT`). (`@openfeature/flagd-core`
 * 4.0.1 in its compiled mode sometimes joins JavaScript's "null" instead, depending on the
 * expression around it; its interpreter, and the JSONLogic definition, do not.)
 */
import { TOTAL_WEIGHT } from "../definitions/RolloutWeight.js"
import type { Condition, WeightedVariation } from "../definitions/Targeting.js"
import { murmur3 } from "../evaluation/Murmur3.js"
import { attributeOf, varOperand } from "./Attribute.js"
import type { Outcome } from "./Formula.js"
import { refuse, type Path, show } from "./Refusal.js"

/** What a leaf needs from its flag: the flag key, and a branch's value as a variant key. */
export interface FlagScope {
  readonly flagKey: string
  readonly defaultVariant: string
  /** The variant a literal names (`null`: flagd's default variant); refuses an unknown one. */
  readonly variantOf: (literal: unknown, path: Path) => string
}

const MAX_INT32 = 2147483647

/** What `cat` makes of the flag key and an absent attribute: the flag key (a null adds nothing). */
export const CAT_OF_ABSENT = (flagKey: string): string => flagKey

interface Bucket {
  readonly variationKey: string
  readonly weight: number
}

const buckets = (entries: ReadonlyArray<unknown>, path: Path, offset: number, scope: FlagScope): ReadonlyArray<Bucket> =>
  entries.map((entry, i) => {
    const at = [...path, i + offset]
    if (!Array.isArray(entry) || entry.length === 0 || entry.length > 2) {
      return refuse(at, `a fractional bucket is ["variant", weight], got ${show(entry)}`)
    }
    const [variant, weight = 1] = entry
    if (variant !== null && typeof variant === "object") return refuse([...at, 0], `a fractional bucket must name its variant literally, got ${show(variant)}`)
    if (typeof weight !== "number" || !Number.isInteger(weight)) {
      return refuse([...at, 1], `a fractional weight must be an integer, got ${show(weight)} (flagd then fails the whole rollout)`)
    }
    // flagd counts a negative weight as 0.
    return { variationKey: scope.variantOf(variant, [...at, 0]), weight: Math.max(0, weight) }
  })

/** Shares of TOTAL_WEIGHT by the largest-remainder method; same-variant buckets merged, empty ones left out. */
export const thousandths = (list: ReadonlyArray<Bucket>): ReadonlyArray<WeightedVariation> => {
  const merged = new Map<string, number>()
  for (const b of list) merged.set(b.variationKey, (merged.get(b.variationKey) ?? 0) + b.weight)
  const total = [...merged.values()].reduce((a, b) => a + b, 0)
  const shares = [...merged].map(([variationKey, weight], index) => {
    const exact = (weight * TOTAL_WEIGHT) / total
    return { variationKey, weight: Math.floor(exact), remainder: exact - Math.floor(exact), index }
  })
  let missing = TOTAL_WEIGHT - shares.reduce((a, s) => a + s.weight, 0)
  for (const s of [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (missing === 0) break
    s.weight++
    missing--
  }
  return shares.filter((s) => s.weight > 0).map(({ variationKey, weight }) => ({ variationKey, weight }))
}

/** The variant flagd serves for a bucketing string (its formula: hash * total >> 32, then running sums). */
export const flagdBucket = (value: string, list: ReadonlyArray<Bucket>): string => {
  const total = list.reduce((a, b) => a + b.weight, 0)
  const bucket = (BigInt(murmur3(value)) * BigInt(total)) >> 32n
  let sum = 0n
  for (const b of list) {
    sum += BigInt(b.weight)
    if (sum > bucket) return b.variationKey
  }
  return list[list.length - 1]!.variationKey
}

/** `{"cat": [{"var": "$flagd.flagKey"}, {"var": NAME}]}`: the attribute NAME, else undefined. */
const catOfFlagKey = (expression: unknown, path: Path): string | undefined => {
  if (typeof expression !== "object" || expression === null || Array.isArray(expression)) return undefined
  const keys = Object.keys(expression)
  const parts = (expression as Record<string, unknown>).cat
  if (keys.length !== 1 || !Array.isArray(parts) || parts.length !== 2) return undefined
  if (varOperand(parts[0])?.operand !== "$flagd.flagKey") return undefined
  return attributeOf(parts[1], [...path, "cat", 1])
}

export const fractionalOutcome = (args: unknown, path: Path, scope: FlagScope): Outcome => {
  if (!Array.isArray(args) || args.length === 0) return refuse(path, `"fractional" needs at least one bucket, got ${show(args)}`)
  const first = args[0]
  let bucketBy: string
  let conditions: ReadonlyArray<Condition> = []
  let list: ReadonlyArray<Bucket>
  let otherwise = scope.defaultVariant
  if (Array.isArray(first)) {
    // No bucketing value: flagd buckets `flagKey + targetingKey`, and serves the default without a targeting key.
    bucketBy = "key"
    list = buckets(args, path, 0, scope)
  } else if (varOperand(first) !== undefined) {
    bucketBy = attributeOf(first, [...path, 0])
    // flagd buckets a string value only (anything else fails the rollout: the default variant).
    if (bucketBy !== "key") conditions = [{ attribute: bucketBy, operator: "startsWith", values: [""] }]
    list = buckets(args.slice(1), path, 1, scope)
  } else {
    const attribute = catOfFlagKey(first, [...path, 0])
    if (attribute === undefined) {
      return refuse(
        [...path, 0],
        `the bucketing value ${show(first)} has no Flagport equivalent; fractional imports with {"var": NAME}, the flag key joined with one ({"cat": [{"var": "$flagd.flagKey"}, {"var": NAME}]}), or none (the targeting key)`
      )
    }
    bucketBy = attribute
    list = buckets(args.slice(1), path, 1, scope)
    // Without the attribute flagd buckets one fixed string: always the same variant.
    otherwise = flagdBucket(CAT_OF_ABSENT(scope.flagKey), list)
  }
  const total = list.reduce((a, b) => a + b.weight, 0)
  if (list.length === 0) return refuse(path, `"fractional" needs at least one bucket`)
  if (total === 0) return refuse(path, `the fractional weights sum to 0, so flagd never serves a bucket`)
  if (total > MAX_INT32) return refuse(path, `the fractional weights sum to more than ${MAX_INT32}, which flagd refuses`)
  return { kind: "rollout", rollout: { bucketBy, variations: thousandths(list) }, conditions, otherwise }
}
