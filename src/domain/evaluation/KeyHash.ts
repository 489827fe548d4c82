/**
 * The hash of a key in a segment's key list: the one format every holder of a list shares (the
 * server, which hashes the keys it stores; an SDK, which is sent only the hashes and hashes its
 * context's key the same way). It is defined by MurmurHash3 x86_32 alone, so any language can
 * reproduce it with a stock implementation:
 *
 *   seeds(salt) = (murmur3_x86_32(utf8(salt), 0x5f3759df), murmur3_x86_32(utf8(salt), 0x2545f491))
 *   hash(key)   = (murmur3_x86_32(utf8(key), seeds.high), murmur3_x86_32(utf8(key), seeds.low))
 *
 * 64 bits per key, as two 32-bit words (high, low). The salt is the list's (KeyListCache.ts): the
 * same key hashes differently in every list, so the hashes sent for one list say nothing about
 * another's.
 *
 * Computed in ONE pass over the key: MurmurHash3's block mixing (`k`) does not depend on the seed,
 * so both halves share it and the second half costs one multiply a block and its finaliser. The
 * string is encoded to UTF-8 on the fly (ASCII four characters a block; the rest by Murmur3.ts's
 * `utf8Word`, the one encoder of both files: a lone surrogate as U+FFFD, as TextEncoder writes it). The words are written into an Int32Array (signed:
 * an unsigned value above 2^31 would be a heap number), so a lookup allocates nothing.
 */
import { murmur3, utf8Length, utf8Word } from "./Murmur3.js"

const C1 = 0xcc9e2d51
const C2 = 0x1b873593

/**
 * Which hash this file computes, sent with every list an SDK downloads (KeyListWire.ts): an SDK
 * refuses a list hashed by a scheme it does not know. Change it with the hash (seeds, function).
 * 1 was MurmurHash3 over the salt and the key together, two passes; 2 is the one above.
 */
export const KEY_HASH_SCHEME = 2

/** The seeds of both halves; every holder of a list must use these. */
const SEED_HIGH = 0x5f3759df
const SEED_LOW = 0x2545f491

/** A list's two seeds, from its salt (signed 32-bit). */
export interface KeySeeds {
  readonly high: number
  readonly low: number
}

export const seedsOf = (salt: string): KeySeeds => ({ high: murmur3(salt, SEED_HIGH) | 0, low: murmur3(salt, SEED_LOW) | 0 })

const mixK = (k: number): number => {
  k = Math.imul(k, C1)
  k = (k << 15) | (k >>> 17)
  return Math.imul(k, C2)
}

const mixH = (h: number, k: number): number => {
  h ^= k
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

const finish = (h: number, tailK: number, length: number): number => {
  h ^= tailK
  h ^= length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/**
 * Writes the key's hash under `seeds` to `out[at]` (high) and `out[at + 1]` (low), as signed
 * 32-bit words (the same bits as the unsigned MurmurHash3 values).
 */
export const hashKeyInto = (high: number, low: number, s: string, out: Int32Array, at: number): void => {
  const n = s.length
  let h1 = high
  let h2 = low
  let i = 0
  // Fast path: four ASCII characters are one block.
  while (i + 4 <= n) {
    const c0 = s.charCodeAt(i)
    const c1 = s.charCodeAt(i + 1)
    const c2 = s.charCodeAt(i + 2)
    const c3 = s.charCodeAt(i + 3)
    if ((c0 | c1 | c2 | c3) >= 0x80) break
    const k = mixK(c0 | (c1 << 8) | (c2 << 16) | (c3 << 24))
    h1 = mixH(h1, k)
    h2 = mixH(h2, k)
    i += 4
  }
  const rest = n - i
  if (rest < 4) {
    // The usual end: up to three ASCII characters left, the tail as one word.
    const c0 = rest > 0 ? s.charCodeAt(i) : 0
    const c1 = rest > 1 ? s.charCodeAt(i + 1) : 0
    const c2 = rest > 2 ? s.charCodeAt(i + 2) : 0
    if ((c0 | c1 | c2) < 0x80) {
      const tailK = rest > 0 ? mixK(c0 | (c1 << 8) | (c2 << 16)) : 0
      out[at] = finish(h1, tailK, n)
      out[at + 1] = finish(h2, tailK, n)
      return
    }
  }
  let length = i
  let tail = 0
  let tailBytes = 0
  for (; i < n; i++) {
    const c = s.charCodeAt(i)
    // One to four UTF-8 bytes, packed little-endian (Murmur3.ts encodes what is not ASCII).
    let bytes = c
    let count = 1
    if (c >= 0x80) {
      bytes = utf8Word(s, i)
      count = utf8Length(bytes)
      if (count === 4) i++
    }
    for (let j = 0; j < count; j++) {
      tail |= ((bytes >>> (j << 3)) & 0xff) << (tailBytes << 3)
      if (++tailBytes === 4) {
        const k = mixK(tail)
        h1 = mixH(h1, k)
        h2 = mixH(h2, k)
        tail = 0
        tailBytes = 0
      }
    }
    length += count
  }
  const tailK = tailBytes > 0 ? mixK(tail) : 0
  out[at] = finish(h1, tailK, length)
  out[at + 1] = finish(h2, tailK, length)
}
