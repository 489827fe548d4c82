/**
 * MurmurHash3 x86_32 over the UTF-8 bytes of a string, written for the evaluator's hot path.
 *
 * The string is encoded to UTF-8 on the fly (no TextEncoder, no byte array), and a hash
 * can resume from a precomputed prefix state, so bucketing `seed + "." + value` never
 * builds the concatenated string nor re-hashes the seed. Lone surrogates encode as
 * U+FFFD, exactly as TextEncoder does. All working values are locals: module-level `let`
 * bindings would cost a context load and a TDZ check per byte.
 */

const C1 = 0xcc9e2d51
const C2 = 0x1b873593

/** The hash state after some bytes: running hash, pending tail bytes and total length. */
export interface Murmur3State {
  readonly h: number
  readonly tail: number
  readonly tailBytes: number
  readonly length: number
}

interface Registers {
  h: number
  tail: number
  tailBytes: number
  length: number
}

const mixBlock = (h: number, k: number): number => {
  k = Math.imul(k, C1)
  k = (k << 15) | (k >>> 17)
  k = Math.imul(k, C2)
  h ^= k
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

/** Feeds the UTF-8 bytes of `s` into the state and writes the new state into `out`. */
const feed = (h: number, tail: number, tailBytes: number, length: number, s: string, out: Registers): void => {
  const n = s.length
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i)
    if (c < 0x80) {
      // ASCII fast path: one byte.
      tail |= c << (tailBytes << 3)
      length++
      if (++tailBytes === 4) {
        h = mixBlock(h, tail)
        tail = 0
        tailBytes = 0
      }
      continue
    }
    // `bytes` packs two to four UTF-8 bytes little-endian; `count` says how many.
    let bytes: number
    let count: number
    if (c < 0x800) {
      bytes = (0xc0 | (c >> 6)) | ((0x80 | (c & 0x3f)) << 8)
      count = 2
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < n ? s.charCodeAt(i + 1) : 0
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00)
          i++
        } else {
          c = 0xfffd // a lone surrogate, as TextEncoder writes it
        }
      }
      if (c < 0x10000) {
        bytes = (0xe0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3f)) << 8) | ((0x80 | (c & 0x3f)) << 16)
        count = 3
      } else {
        bytes =
          (0xf0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3f)) << 8) | ((0x80 | ((c >> 6) & 0x3f)) << 16) | ((0x80 | (c & 0x3f)) << 24)
        count = 4
      }
    }
    for (let j = 0; j < count; j++) {
      tail |= ((bytes >>> (j << 3)) & 0xff) << (tailBytes << 3)
      if (++tailBytes === 4) {
        h = mixBlock(h, tail)
        tail = 0
        tailBytes = 0
      }
    }
    length += count
  }
  out.h = h
  out.tail = tail
  out.tailBytes = tailBytes
  out.length = length
}

const finish = (r: Registers): number => {
  let h = r.h
  if (r.tailBytes > 0) {
    let k = Math.imul(r.tail, C1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, C2)
    h ^= k
  }
  h ^= r.length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

// Reused by `hashFrom`: evaluation is synchronous and `feed` never re-enters, so sharing is safe.
const scratch: Registers = { h: 0, tail: 0, tailBytes: 0, length: 0 }

/** The state after hashing `prefix` with `seed`, to resume from with `hashFrom`. */
export const prefixState = (prefix: string, seed = 0): Murmur3State => {
  const out: Registers = { h: 0, tail: 0, tailBytes: 0, length: 0 }
  feed(seed | 0, 0, 0, 0, prefix, out)
  return Object.freeze(out)
}

/** murmurhash3_x86_32(utf8(prefix + rest)) where `state` is `prefixState(prefix, seed)`; unsigned 32-bit. */
export const hashFrom = (state: Murmur3State, rest: string): number => {
  feed(state.h, state.tail, state.tailBytes, state.length, rest, scratch)
  return finish(scratch)
}

const EMPTY: Murmur3State = Object.freeze({ h: 0, tail: 0, tailBytes: 0, length: 0 })

/** murmurhash3_x86_32 of the UTF-8 bytes of `input`, as an unsigned 32-bit integer. */
export const murmur3 = (input: string, seed = 0): number =>
  hashFrom(seed === 0 ? EMPTY : { h: seed | 0, tail: 0, tailBytes: 0, length: 0 }, input)
