/**
 * The key lists' hash format (KeyHash.ts) is MurmurHash3 x86_32 twice, with seeds from the salt:
 * the one-pass implementation agrees with the plain MurmurHash3 (itself held to the published
 * vectors in Bucketing.test.ts) on arbitrary strings, lone surrogates included; fixed vectors pin
 * the seeds, so another holder of the format (an SDK in any language) can check itself against them.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { hashKeyInto, seedsOf } from "../../src/domain/evaluation/KeyHash.js"
import { KeySet, KeySetBuilder } from "../../src/domain/evaluation/KeySet.js"
import { murmur3 } from "../../src/domain/evaluation/Murmur3.js"

const hashOf = (salt: string, key: string): [number, number] => {
  const out = new Int32Array(2)
  const seeds = seedsOf(salt)
  hashKeyInto(seeds.high, seeds.low, key, out, 0)
  return [out[0]! >>> 0, out[1]! >>> 0]
}

/** Strings of UTF-16 code units, lone surrogates and every UTF-8 length among them. */
const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 24 })
)

describe("key hash format", () => {
  it.prop("equals MurmurHash3 x86_32 of the key's UTF-8 under the salt's two seeds", [anyString, anyString], ([salt, key]) => {
    const high = murmur3(salt, 0x5f3759df)
    const low = murmur3(salt, 0x2545f491)
    expect(hashOf(salt, key)).toEqual([murmur3(key, high), murmur3(key, low)])
  }, { fastCheck: { numRuns: 500 } })

  it.each([
    ["seg_1/included", "user-42", 0x66bab84e, 0x5b697873],
    ["seg_1/excluded", "user-42", 0xc239dc2d, 0x4822e0fe],
    ["s", "", 0xd272567c, 0x39f75487],
    ["s", "ü-3", 0xfe1cf816, 0xc54fbc75],
    ["beta/included", "😀", 0x3586384f, 0x5ac8c848]
  ])("vector: salt %s, key %s", (salt, key, high, low) => {
    expect(hashOf(salt, key)).toEqual([high, low])
  })
})

describe("KeySet table", () => {
  it.prop(
    "answers as a Set of its keys, built at once, from hashes, or a part at a time past its expected size",
    [fc.uniqueArray(anyString, { maxLength: 300 }), fc.array(anyString, { maxLength: 30 }), fc.integer({ min: 0, max: 50 })],
    ([keys, probes, expected]) => {
      const reference = new Set(keys)
      const whole = KeySet.fromKeys("salt", [...keys, ...keys.slice(0, 5)])
      const fromHashes = KeySet.fromHashes("salt", whole.hashes())
      const builder = new KeySetBuilder("salt", expected)
      for (let i = 0; i < keys.length; i += 7) builder.addKeys(keys.slice(i, i + 7))
      const parts = builder.build()
      for (const set of [whole, fromHashes, parts]) {
        expect(set.size).toBe(reference.size)
        for (const probe of [...probes, ...keys]) expect(set.has(probe)).toBe(reference.has(probe))
      }
    },
    { fastCheck: { numRuns: 200 } }
  )

  it("a million keys take 16 MB of table; their hashes are 8 bytes a key", () => {
    const keys = Array.from({ length: 1_000_000 }, (_, i) => `account-${i}`)
    const set = KeySet.fromKeys("big", keys)
    const hashes = set.hashes()
    expect(set.size).toBe(1_000_000)
    expect(hashes.byteLength).toBe(8_000_000)
    expect(set.has("account-999999")).toBe(true)
    expect(set.has("account-1000000")).toBe(false)
    expect(KeySet.fromHashes("big", hashes).has("account-123456")).toBe(true)
  })
})
