/**
 * Percentage-rollout bucketing, fixed by the contract so every SDK agrees:
 *
 *   input  = (rollout.seed ?? flagKey) + "." + bucketValue
 *   bucket = floor(murmurhash3_x86_32(utf8(input), 0) * 100000 / 2^32)     // 0 .. 99999
 *
 * `hashInput` is the one place that builds the input; the evaluator uses a `Bucketer`, which
 * hashes the same bytes but resumes from the precomputed state of `hashInput(seed, "")`.
 * Golden vectors (test/fixtures/bucketing-vectors.json) pin both paths.
 */
import { hashRest, type Murmur3State, murmur3, prefixState } from "./Murmur3.js"

export const BUCKETS = 100_000
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
 * The bucket of `value` for the bucketer's seed; the same number as `bucket(seed, value)`.
 * Calls the hash loop directly (signed result, so never boxed), one call and no wrapper.
 */
export const bucketWith = (bucketer: Bucketer, value: string): number => {
  const st = bucketer.state
  return Math.floor(((hashRest(st.h, st.tail, st.tailBytes, st.length, value) >>> 0) * BUCKETS) / TWO_32)
}

/**
 * Index of the served slice: walk the weights in order, adding them; the first whose running
 * sum exceeds `bucket` wins. `cumulative` holds those running sums. -1 when none does
 * (weights summing to less than 100000, which validation refuses).
 */
export const sliceIndex = (cumulative: ArrayLike<number>, b: number): number => {
  for (let i = 0; i < cumulative.length; i++) if (b < cumulative[i]!) return i
  return -1
}

export const cumulativeWeights = (weights: ReadonlyArray<number>): Array<number> => {
  let sum = 0
  return weights.map((w) => (sum += w))
}
