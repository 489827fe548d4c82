/**
 * A segment's key list as the evaluator holds it: each key's salted 64-bit hash in an
 * open-addressing table of 32-bit words, at most half full. A lookup is one hash (two MurmurHash3
 * x86_32 halves over the salt and the key, resumed from the salt's precomputed state) and, almost
 * always, one probe; a million keys take 16 MB (2^21 slots x 8 bytes) instead of a `Set` of a
 * million strings (about 70 MB). The same table is built from the keys (the server) or from their
 * hashes (an SDK, which is never sent the keys themselves), so both answer alike.
 *
 * A hash is not the key: two keys share a 64-bit hash with probability about n / 2^64 per lookup
 * (5e-14 for a million keys), which is taken as never.
 */
import { hashFrom, type Murmur3State, prefixState } from "./Murmur3.js"

/**
 * Which hash this file computes, sent with every list an SDK downloads (KeyListWire.ts): an SDK
 * refuses a list hashed by a scheme it does not know. Change it with the hash (seeds, function).
 */
export const KEY_HASH_SCHEME = 1

/** The two halves' seeds: any two fixed, distinct numbers; every holder of a list must use these. */
const SEED_HIGH = 0x5f3759df
const SEED_LOW = 0x2545f491

export interface KeyHasher {
  readonly high: Murmur3State
  readonly low: Murmur3State
}

/** The hasher of a list's salt (its precomputed states: the salt is hashed once, not per key). */
export const hasherOf = (salt: string): KeyHasher => ({ high: prefixState(salt, SEED_HIGH), low: prefixState(salt, SEED_LOW) })

/** An empty slot is (0, 0); a key whose hash is (0, 0) is stored as (0, 1), and looked up so. */
const lowOf = (high: number, low: number) => (high === 0 && low === 0 ? 1 : low)

export class KeySet {
  private constructor(
    readonly salt: string,
    readonly size: number,
    private readonly hasher: KeyHasher,
    private readonly slots: Uint32Array,
    private readonly mask: number
  ) {}

  /** The table for `count` hashes, at most half full. */
  private static table(count: number): { slots: Uint32Array; mask: number } {
    let capacity = 16
    while (capacity < count * 2) capacity *= 2
    return { slots: new Uint32Array(capacity * 2), mask: capacity - 1 }
  }

  /** Inserts one hash; answers whether it was new. */
  private static put(slots: Uint32Array, mask: number, high: number, low: number): boolean {
    let i = high & mask
    for (;;) {
      const at = i * 2
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

  /** A list from its keys (duplicates count once). */
  static fromKeys(salt: string, keys: ReadonlyArray<string>): KeySet {
    const hasher = hasherOf(salt)
    const { mask, slots } = KeySet.table(keys.length)
    let size = 0
    for (const key of keys) {
      const high = hashFrom(hasher.high, key)
      if (KeySet.put(slots, mask, high, lowOf(high, hashFrom(hasher.low, key)))) size++
    }
    return new KeySet(salt, size, hasher, slots, mask)
  }

  /** A list from its keys' hashes, as `hashes` gives them: (high, low) pairs of unsigned 32-bit words. */
  static fromHashes(salt: string, hashes: Uint32Array): KeySet {
    const hasher = hasherOf(salt)
    const { mask, slots } = KeySet.table(hashes.length / 2)
    let size = 0
    for (let i = 0; i + 1 < hashes.length; i += 2) {
      const high = hashes[i]!
      if (KeySet.put(slots, mask, high, lowOf(high, hashes[i + 1]!))) size++
    }
    return new KeySet(salt, size, hasher, slots, mask)
  }

  /** The keys' hashes as (high, low) pairs under `salt`: what `fromHashes` and `withChanges` take. */
  static hashKeys(salt: string, keys: ReadonlyArray<string>): Uint32Array {
    const hasher = hasherOf(salt)
    const out = new Uint32Array(keys.length * 2)
    for (let i = 0; i < keys.length; i++) {
      const high = hashFrom(hasher.high, keys[i]!)
      out[i * 2] = high
      out[i * 2 + 1] = lowOf(high, hashFrom(hasher.low, keys[i]!))
    }
    return out
  }

  /**
   * A new list: this one with `added` hashes put in, then `removed` ones taken out (so a hash in
   * both ends out), as (high, low) pairs. This one is left as it was (a snapshot compiled with it
   * keeps evaluating with it); the table is copied (16 MB for a million keys: milliseconds), or
   * rebuilt larger when the additions would fill it past half.
   */
  withChanges(added: Uint32Array, removed: Uint32Array): KeySet {
    let slots: Uint32Array
    let mask: number
    if ((this.size + added.length / 2) * 2 > this.slots.length / 2) {
      ;({ mask, slots } = KeySet.table(this.size + added.length / 2))
      for (let at = 0; at < this.slots.length; at += 2) {
        if (this.slots[at] !== 0 || this.slots[at + 1] !== 0) KeySet.put(slots, mask, this.slots[at]!, this.slots[at + 1]!)
      }
    } else {
      slots = this.slots.slice()
      mask = this.mask
    }
    let size = this.size
    for (let i = 0; i + 1 < added.length; i += 2) {
      const high = added[i]!
      if (KeySet.put(slots, mask, high, lowOf(high, added[i + 1]!))) size++
    }
    for (let i = 0; i + 1 < removed.length; i += 2) {
      const high = removed[i]!
      if (KeySet.remove(slots, mask, high, lowOf(high, removed[i + 1]!))) size--
    }
    return new KeySet(this.salt, size, this.hasher, slots, mask)
  }

  /**
   * Takes one hash out; answers whether it was there. Linear probing's deletion without
   * tombstones: the entries after the hole that probed past it move back into it, so every lookup
   * still finds its hash before the first empty slot.
   */
  private static remove(slots: Uint32Array, mask: number, high: number, low: number): boolean {
    let i = high & mask
    for (;;) {
      const at = i * 2
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
      const h = slots[j * 2]!
      const l = slots[j * 2 + 1]!
      if (h === 0 && l === 0) break
      const home = h & mask
      // The entry at j may fill the hole when its home is not cyclically within (hole, j].
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j
      if (!stays) {
        slots[hole * 2] = h
        slots[hole * 2 + 1] = l
        hole = j
      }
    }
    slots[hole * 2] = 0
    slots[hole * 2 + 1] = 0
    return true
  }

  /** Whether the key is in the list. */
  has(key: string): boolean {
    const high = hashFrom(this.hasher.high, key)
    const low = lowOf(high, hashFrom(this.hasher.low, key))
    const slots = this.slots
    const mask = this.mask
    let i = high & mask
    for (;;) {
      const at = i * 2
      const h = slots[at]!
      const l = slots[at + 1]!
      if (h === high && l === low) return true
      if (h === 0 && l === 0) return false
      i = (i + 1) & mask
    }
  }

  /** Every key's hash, as (high, low) pairs: what an SDK is sent instead of the keys. */
  hashes(): Uint32Array {
    const out = new Uint32Array(this.size * 2)
    let n = 0
    for (let at = 0; at < this.slots.length; at += 2) {
      if (this.slots[at] !== 0 || this.slots[at + 1] !== 0) {
        out[n++] = this.slots[at]!
        out[n++] = this.slots[at + 1]!
      }
    }
    return out
  }
}

/** Keys hashed as they are read (a page at a time), then built into a `KeySet`: a million keys never held as strings at once. */
export class KeyHashes {
  private readonly hasher: KeyHasher
  private words = new Uint32Array(2048)
  private n = 0

  constructor(readonly salt: string) {
    this.hasher = hasherOf(salt)
  }

  add(keys: ReadonlyArray<string>): void {
    if (this.n + keys.length * 2 > this.words.length) {
      let size = this.words.length
      while (size < this.n + keys.length * 2) size *= 2
      const grown = new Uint32Array(size)
      grown.set(this.words.subarray(0, this.n))
      this.words = grown
    }
    for (const key of keys) {
      this.words[this.n++] = hashFrom(this.hasher.high, key)
      this.words[this.n++] = hashFrom(this.hasher.low, key)
    }
  }

  build(): KeySet {
    return KeySet.fromHashes(this.salt, this.words.subarray(0, this.n))
  }
}
