import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Bucketing from "../../src/domain/evaluation/Bucketing.js"
import * as Murmur3 from "../../src/domain/evaluation/Murmur3.js"

interface Vector {
  readonly seed: string
  readonly value: string
  readonly input: string
  readonly murmur3: number
  readonly bucket: number
}

const local = fileURLToPath(new URL("../fixtures/bucketing-vectors.json", import.meta.url))
const shared = fileURLToPath(new URL("../../../shared/design/bucketing-vectors.json", import.meta.url))
const vectors: ReadonlyArray<Vector> = JSON.parse(readFileSync(local, "utf8")).vectors

describe("bucketing golden vectors", () => {
  it("the fixture is a faithful copy of the design's vectors (when ../shared is present)", () => {
    if (existsSync(shared)) expect(JSON.parse(readFileSync(shared, "utf8"))).toEqual(JSON.parse(readFileSync(local, "utf8")))
    expect(vectors.length).toBeGreaterThanOrEqual(50)
  })

  it.each(vectors)("$seed . $value", (v) => {
    expect(Bucketing.hashInput(v.seed, v.value)).toBe(v.input)
    expect(Murmur3.murmur3(v.input)).toBe(v.murmur3)
    expect(Bucketing.bucket(v.seed, v.value)).toBe(v.bucket)
    // The evaluator's path: resume from the precomputed "seed." prefix.
    expect(Bucketing.bucketWith(Bucketing.makeBucketer(v.seed), v.value)).toBe(v.bucket)
  })
})

describe("MurmurHash3 x86_32", () => {
  // Published reference values for murmurhash3_x86_32 with seed 0 (and one with a seed).
  it.each([
    ["", 0, 0],
    ["", 1, 0x514e28b7],
    ["a", 0, 0x3c2569b2],
    ["abc", 0, 0xb3dd93fa],
    ["abcd", 0, 0x43ed676a],
    ["hello", 0, 0x248bfa47],
    ["Hello, world!", 0, 0xc0363e43],
    ["The quick brown fox jumps over the lazy dog", 0, 0x2e4ff723]
  ] as const)("%j (seed %i)", (input, seed, expected) => {
    expect(Murmur3.murmur3(input, seed)).toBe(expected)
  })

  it.prop("hashes the same bytes as TextEncoder would give, from any prefix split", [fc.string({ unit: "binary" }), fc.nat()], ([s, cut]) => {
    let at = s.length === 0 ? 0 : cut % (s.length + 1)
    // Do not cut a surrogate pair in two (the real prefix always ends with ".").
    if (at > 0 && at < s.length && /[\ud800-\udbff]/.test(s[at - 1]!) && /[\udc00-\udfff]/.test(s[at]!)) at--
    const whole = Murmur3.murmur3(s)
    expect(Murmur3.hashFrom(Murmur3.prefixState(s.slice(0, at)), s.slice(at))).toBe(whole)
    // Lone surrogates are encoded as U+FFFD, like TextEncoder: the well-formed string hashes alike.
    expect(whole).toBe(Murmur3.murmur3(new TextDecoder().decode(new TextEncoder().encode(s))))
  })
})

describe("bucket properties", () => {
  it.prop("a bucket is always an integer in [0, 100000)", [fc.string(), fc.string({ unit: "binary" })], ([seed, value]) => {
    const b = Bucketing.bucket(seed, value)
    expect(Number.isInteger(b)).toBe(true)
    expect(b).toBeGreaterThanOrEqual(0)
    expect(b).toBeLessThan(100_000)
  })

  it("hash thresholds: every running weight from 0 to 100000 splits hashes exactly where buckets split", () => {
    for (let c = 0; c <= Bucketing.BUCKETS; c++) {
      const t = Bucketing.hashThreshold(c)
      expect(Number.isInteger(t)).toBe(true)
      // The last hash below the threshold is in a bucket below c; the threshold itself is not.
      if (t > 0 && Bucketing.bucketOfHash(t - 1) >= c) throw new Error(`threshold of ${c} too high: ${t}`)
      if (t < 2 ** 32 && Bucketing.bucketOfHash(t) < c) throw new Error(`threshold of ${c} too low: ${t}`)
    }
    expect(Bucketing.hashThreshold(0)).toBe(0)
    expect(Bucketing.hashThreshold(Bucketing.BUCKETS)).toBe(2 ** 32)
  })

  it("maps the extreme hashes to the first and last bucket", () => {
    expect(Bucketing.bucketOfHash(0)).toBe(0)
    expect(Bucketing.bucketOfHash(0xffffffff)).toBe(99_999)
  })

  it("bucket values: strings as is, finite numbers in JSON form, nothing else", () => {
    expect(Bucketing.bucketValue("abc")).toBe("abc")
    expect(Bucketing.bucketValue(42)).toBe("42")
    expect(Bucketing.bucketValue(3.5)).toBe("3.5")
    expect(Bucketing.bucketValue(1e21)).toBe(JSON.stringify(1e21))
    expect(Bucketing.bucketValue(-0)).toBe(JSON.stringify(-0))
    for (const v of [NaN, Infinity, true, null, undefined, {}, ["a"]]) expect(Bucketing.bucketValue(v)).toBeUndefined()
  })

  it.prop(
    "growing one variation's weight while shrinking the last never moves a context out of it",
    [
      fc.array(fc.nat({ max: 100_000 }), { minLength: 2, maxLength: 5 }),
      fc.nat({ max: 4 }),
      fc.nat({ max: 100_000 }),
      fc.string()
    ],
    ([raw, pick, grow, key]) => {
      // Normalise arbitrary weights to sum to 100000.
      const total = raw.reduce((a, b) => a + b, 0) || 1
      const weights = raw.map((w) => Math.floor((w * 100_000) / total))
      weights[weights.length - 1]! += 100_000 - weights.reduce((a, b) => a + b, 0)
      const last = weights.length - 1
      const i = pick % last // any variation but the last
      const delta = Math.min(grow, weights[last]!)
      const grown = [...weights]
      grown[i]! += delta
      grown[last]! -= delta
      const b = Bucketing.bucket("flag", key)
      const before = Bucketing.sliceIndex(Bucketing.cumulativeWeights(weights), b)
      const after = Bucketing.sliceIndex(Bucketing.cumulativeWeights(grown), b)
      if (before === i) expect(after).toBe(i)
      // Variations before the grown one keep their contexts too (their running sums are unchanged).
      if (before < i) expect(after).toBe(before)
    }
  )

  it("over 100,000 random keys each variation's share is within 1 percentage point of its weight", () => {
    const weights = [10_000, 25_000, 5_000, 60_000]
    const cumulative = Bucketing.cumulativeWeights(weights)
    const bucketer = Bucketing.makeBucketer("distribution-check")
    const counts = [0, 0, 0, 0]
    const rng = fc.sample(fc.uuid(), { numRuns: 100_000, seed: 20261122 })
    for (const key of rng) counts[Bucketing.sliceIndex(cumulative, Bucketing.bucketWith(bucketer, key))]!++
    counts.forEach((count, i) => {
      expect(Math.abs(count / 100_000 - weights[i]! / 100_000)).toBeLessThan(0.01)
    })
  })
})
