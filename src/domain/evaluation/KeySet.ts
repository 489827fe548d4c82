/**
 * A segment's key list as the evaluator holds it: each key's 64-bit hash (KeyHash.ts, the format
 * every holder shares) in an open-addressing table of 32-bit words, linear probing, at most half
 * full. A lookup is one hash (one pass over the key) and, almost always, one probe of 8 bytes; a
 * million keys take 16 MB (2^21 slots x 8 bytes) instead of a `Set` of a million strings (about
 * 70 MB). The same table is built from the keys (the server) or from their hashes (an SDK, which
 * is never sent the keys themselves), so both answer alike.
 *
 * A hash is not the key, and the table keeps no key: a key outside the list is taken for a listed
 * one only when its 64-bit hash equals a listed key's, about n / 2^64 per lookup (5e-14 for a
 * million keys), which is taken as never. Holding the keys to rule it out would cost the 70 MB the
 * table exists to save (and an SDK is never sent them).
 */
import { hashKeyInto, type KeySeeds, seedsOf } from "./KeyHash.js"

export { KEY_HASH_SCHEME } from "./KeyHash.js"

/** The words of the key being looked up (one list at a time: the evaluator is synchronous). */
const probe = new Int32Array(2)

/** An empty slot is (0, 0); a key whose hash is (0, 0) is stored as (0, 1), and looked up so. */
const lowOf = (high: number, low: number) => (high === 0 && low === 0 ? 1 : low)

/** Slots (pairs of words) for `count` keys at most half full, a power of two. */
const capacityFor = (count: number): number => {
  let capacity = 16
  while (capacity < count * 2) capacity *= 2
  return capacity
}

/** (high, low) word pairs as signed words, the same bits (a view, not a copy). */
const signed = (words: Uint32Array | Int32Array): Int32Array =>
  words instanceof Int32Array ? words : new Int32Array(words.buffer, words.byteOffset, words.length)

/** Inserts one hash; answers whether it was new. */
const put = (slots: Int32Array, mask: number, high: number, low: number): boolean => {
  let i = high & mask
  for (;;) {
    const at = i << 1
    const h = slots[at]!
    const l = slots[at + 1]!
    if (h === 0 && l === 0) {
      slots[at] = high
      slots[at + 1] = low
      return true
    }
    if (h === high && l === low) return false
    i = (i + 1) & mask
  }
}

/**
 * Takes one hash out; answers whether it was there. Linear probing's deletion without tombstones:
 * the entries after the hole that probed past it move back into it, so every lookup still finds
 * its hash before the first empty slot.
 */
const remove = (slots: Int32Array, mask: number, high: number, low: number): boolean => {
  let i = high & mask
  for (;;) {
    const at = i << 1
    const h = slots[at]!
    const l = slots[at + 1]!
    if (h === 0 && l === 0) return false
    if (h === high && l === low) break
    i = (i + 1) & mask
  }
  let hole = i
  let j = i
  for (;;) {
    j = (j + 1) & mask
    const h = slots[j << 1]!
    const l = slots[(j << 1) + 1]!
    if (h === 0 && l === 0) break
    const home = h & mask
    // The entry at j may fill the hole when its home is not cyclically within (hole, j].
    const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j
    if (!stays) {
      slots[hole << 1] = h
      slots[(hole << 1) + 1] = l
      hole = j
    }
  }
  slots[hole << 1] = 0
  slots[(hole << 1) + 1] = 0
  return true
}

export class KeySet {
  private constructor(
    readonly salt: string,
    readonly size: number,
    private readonly seedHigh: number,
    private readonly seedLow: number,
    private readonly slots: Int32Array,
    private readonly mask: number
  ) {}

  /** A list from its keys (duplicates count once). */
  static fromKeys(salt: string, keys: ReadonlyArray<string>): KeySet {
    const builder = new KeySetBuilder(salt, keys.length)
    builder.addKeys(keys)
    return builder.build()
  }

  /** A list from its keys' hashes, as `hashes` gives them: (high, low) pairs of 32-bit words. */
  static fromHashes(salt: string, hashes: Uint32Array | Int32Array): KeySet {
    const builder = new KeySetBuilder(salt, hashes.length >> 1)
    builder.addHashes(hashes)
    return builder.build()
  }

  /** @internal The builder's table as a set. */
  static of(salt: string, size: number, seeds: KeySeeds, slots: Int32Array): KeySet {
    return new KeySet(salt, size, seeds.high, seeds.low, slots, (slots.length >> 1) - 1)
  }

  /** The keys' hashes as (high, low) pairs of unsigned words under `salt`: what `fromHashes` and `withChanges` take. */
  static hashKeys(salt: string, keys: ReadonlyArray<string>): Uint32Array {
    const { high, low } = seedsOf(salt)
    const out = new Int32Array(keys.length * 2)
    for (let i = 0; i < keys.length; i++) {
      hashKeyInto(high, low, keys[i]!, out, i * 2)
      out[i * 2 + 1] = lowOf(out[i * 2]!, out[i * 2 + 1]!)
    }
    return new Uint32Array(out.buffer)
  }

  /**
   * A new list: this one with `added` hashes put in, then `removed` ones taken out (so a hash in
   * both ends out), as (high, low) pairs. This one is left as it was (a snapshot compiled with it
   * keeps evaluating with it); the table is copied (16 MB for a million keys: milliseconds), or
   * rebuilt larger when the additions would fill it past half.
   */
  withChanges(added: Uint32Array | Int32Array, removed: Uint32Array | Int32Array): KeySet {
    const more = signed(added)
    const less = signed(removed)
    let slots: Int32Array
    let mask: number
    if ((this.size + (more.length >> 1)) * 2 > this.mask + 1) {
      const capacity = capacityFor(this.size + (more.length >> 1))
      slots = new Int32Array(capacity * 2)
      mask = capacity - 1
      const old = this.slots
      for (let at = 0; at < old.length; at += 2) {
        if (old[at] !== 0 || old[at + 1] !== 0) put(slots, mask, old[at]!, old[at + 1]!)
      }
    } else {
      slots = this.slots.slice()
      mask = this.mask
    }
    let size = this.size
    for (let i = 0; i + 1 < more.length; i += 2) if (put(slots, mask, more[i]!, lowOf(more[i]!, more[i + 1]!))) size++
    for (let i = 0; i + 1 < less.length; i += 2) if (remove(slots, mask, less[i]!, lowOf(less[i]!, less[i + 1]!))) size--
    return new KeySet(this.salt, size, this.seedHigh, this.seedLow, slots, mask)
  }

  /** Whether the key is in the list: one hash, one probe (a second only on a collision of slots). */
  has(key: string): boolean {
    hashKeyInto(this.seedHigh, this.seedLow, key, probe, 0)
    const high = probe[0]!
    const low = lowOf(high, probe[1]!)
    const slots = this.slots
    const mask = this.mask
    let i = high & mask
    for (;;) {
      const at = i << 1
      const h = slots[at]!
      const l = slots[at + 1]!
      if (h === high && l === low) return true
      if (h === 0 && l === 0) return false
      i = (i + 1) & mask
    }
  }

  /** Every key's hash, as (high, low) pairs of unsigned words: what an SDK is sent instead of the keys. */
  hashes(): Uint32Array {
    const out = new Uint32Array(this.size * 2)
    const slots = this.slots
    let n = 0
    for (let at = 0; at < slots.length; at += 2) {
      if (slots[at] !== 0 || slots[at + 1] !== 0) {
        out[n++] = slots[at]!
        out[n++] = slots[at + 1]!
      }
    }
    return out
  }
}

/**
 * A `KeySet` built a part at a time (a page of keys as it is read, a chunk of hashes as it
 * arrives), so neither a million strings nor one long step is ever needed: each `add` hashes and
 * inserts its part. `expected` sizes the table; more keys than that grow it (by doubling, each key
 * inserted again). The table is handed over by `build`; the builder must not be used after.
 */
export class KeySetBuilder {
  private readonly seeds: KeySeeds
  private slots: Int32Array
  private mask: number
  private size = 0

  constructor(
    readonly salt: string,
    expected: number
  ) {
    this.seeds = seedsOf(salt)
    const capacity = capacityFor(Math.max(0, expected))
    this.slots = new Int32Array(capacity * 2)
    this.mask = capacity - 1
  }

  addKeys(keys: ReadonlyArray<string>): void {
    this.room(keys.length)
    const { high, low } = this.seeds
    for (const key of keys) {
      hashKeyInto(high, low, key, probe, 0)
      if (put(this.slots, this.mask, probe[0]!, lowOf(probe[0]!, probe[1]!))) this.size++
    }
  }

  addHashes(hashes: Uint32Array | Int32Array): void {
    const words = signed(hashes)
    this.room(words.length >> 1)
    for (let i = 0; i + 1 < words.length; i += 2) {
      if (put(this.slots, this.mask, words[i]!, lowOf(words[i]!, words[i + 1]!))) this.size++
    }
  }

  build(): KeySet {
    return KeySet.of(this.salt, this.size, this.seeds, this.slots)
  }

  /** Grows the table so that `more` keys keep it at most half full. */
  private room(more: number): void {
    const capacity = this.mask + 1
    if ((this.size + more) * 2 <= capacity) return
    const old = this.slots
    const grown = capacityFor(this.size + more)
    this.slots = new Int32Array(grown * 2)
    this.mask = grown - 1
    for (let at = 0; at < old.length; at += 2) {
      if (old[at] !== 0 || old[at + 1] !== 0) put(this.slots, this.mask, old[at]!, old[at + 1]!)
    }
  }
}
