/**
 * Percentage-rollout bucketing, fixed by the contract so that every implementation agrees:
 *
 *   input  = (rollout.seed ?? flagKey) + "." + bucketValue
 *   bucket = floor(murmurhash3_x86_32(utf8(input), 0) * 100000 / 2^32)     // 0 .. 99999
 *
 * `hashInput` is the one place that builds the input; the evaluator uses a `Bucketer`, which
 * hashes the same bytes but resumes from the precomputed state of `hashInput(seed, "")`.
 * Golden vectors (test/fixtures/bucketing-vectors.json) pin both paths.
 */
import { TOTAL_WEIGHT } from "../definitions/RolloutWeight.js"
import { hashRest, type Murmur3State, murmur3, prefixState } from "./Murmur3.js"

/** One bucket per unit of rollout weight, so a slice of weight w holds w buckets. */
export const BUCKETS = TOTAL_WEIGHT
const TWO_32 = 4_294_967_296

/** The hash input for a seed (the rollout seed or else the flag key) and a bucket value. */
export const hashInput = (seed: string, value: string): string => seed + "." + value

/** Maps an unsigned 32-bit hash to a bucket in [0, 100000); exact in doubles (hash * 1e5 < 2^53). */
export const bucketOfHash = (hash: number): number => Math.floor((hash * BUCKETS) / TWO_32)

/** The bucket of `value` for `seed`, straight from the contract's formula. */
export const bucket = (seed: string, value: string): number => bucketOfHash(murmur3(hashInput(seed, value)))

/**
 * The bucket value of an attribute: a string as is, a finite number in its JSON form
 * (for finite numbers `String(n)` and `JSON.stringify(n)` agree); anything else has none.
 */
export const bucketValue = (attribute: unknown): string | undefined =>
  typeof attribute === "string"
    ? attribute
    : typeof attribute === "number" && Number.isFinite(attribute)
      ? String(attribute)
      : undefined

/** Buckets values for one seed without rebuilding or re-hashing the seed prefix. */
export interface Bucketer {
  readonly seed: string
  readonly state: Murmur3State
}

export const makeBucketer = (seed: string): Bucketer => ({ seed, state: prefixState(hashInput(seed, "")) })

/**
 * The hash-space form of `cumulative`: `hash < thresholds[i]` exactly when
 * `bucketOfHash(hash) < cumulative[i]`, so the evaluator picks the slice straight from the unsigned
 * hash, without the multiply, divide and floor. Why it is exact: with c an integer, floor(x) < c
 * holds exactly when x < c, that is hash < c * 2^32 / 100000, and for an integer hash that is
 * hash < ceil(c * 2^32 / 100000). c * 2^32 is exact in a double; the quotient's fractional part is
 * a multiple of 1/100000, far from the rounding error, so `Math.ceil` of the rounded quotient is the
 * true ceiling. A test checks every c from 0 to 100000 on both sides of its threshold.
 */
export const hashThreshold = (cumulative: number): number => Math.ceil((cumulative * TWO_32) / BUCKETS)

/**
 * The hash of `value` for the bucketer's seed as a *signed* int32 (never boxed); callers take
 * `>>> 0` for the unsigned value in their own arithmetic (what `bucketWith` maps to a bucket).
 */
export const hashWith = (bucketer: Bucketer, value: string): number => {
  const st = bucketer.state
  return hashRest(st.h, st.tail, st.tailBytes, st.length, value)
}

/** The bucket of `value` for the bucketer's seed; the same number as `bucket(seed, value)`. */
export const bucketWith = (bucketer: Bucketer, value: string): number => bucketOfHash(hashWith(bucketer, value) >>> 0)

/**
 * Index of the served slice, as the contract defines it: walk the weights in order, adding them;
 * the first whose running sum exceeds `bucket` wins. `cumulative` holds those running sums. -1 when
 * none does (weights summing to less than 100000, which validation refuses). The evaluator makes the
 * same choice in hash space (`hashThreshold`); the tests use this reference form.
 */
export const sliceIndex = (cumulative: ArrayLike<number>, b: number): number => {
  for (let i = 0; i < cumulative.length; i++) if (b < cumulative[i]!) return i
  return -1
}

export const cumulativeWeights = (weights: ReadonlyArray<number>): Array<number> => {
  let sum = 0
  return weights.map((w) => (sum += w))
}
