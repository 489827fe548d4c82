/**
 * MurmurHash3 x86_32 over the UTF-8 bytes of a string, written for the evaluator's hot path.
 *
 * The string is encoded to UTF-8 on the fly (no TextEncoder, no byte array), and a hash
 * can resume from a precomputed prefix state, so bucketing `seed + "." + value` never
 * builds the concatenated string nor re-hashes the seed. Lone surrogates encode as
 * U+FFFD, exactly as TextEncoder does. The hot loop keeps everything in locals: module-level
 * `let` bindings or a scratch object would cost memory traffic on every byte.
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

const mixBlock = (h: number, k: number): number => {
  k = Math.imul(k, C1)
  k = (k << 15) | (k >>> 17)
  k = Math.imul(k, C2)
  h ^= k
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

/**
 * The UTF-8 encoding of the character of `s` at `i`, whose code unit is not ASCII (0x80 or more),
 * as its two to four bytes packed little-endian into one word (`utf8Length` says how many). A
 * surrogate pair is one character of four bytes (the caller steps over both code units); a lone
 * surrogate is U+FFFD, exactly as TextEncoder writes it. The one encoder of every hash here
 * (this file's and KeyHash.ts's), kept small so that V8 inlines it into their loops.
 */
export const utf8Word = (s: string, i: number): number => {
  let c = s.charCodeAt(i)
  if (c < 0x800) return (0xc0 | (c >> 6)) | ((0x80 | (c & 0x3f)) << 8)
  if (c >= 0xd800 && c <= 0xdfff) {
    const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00)
      return (0xf0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3f)) << 8) | ((0x80 | ((c >> 6) & 0x3f)) << 16) | ((0x80 | (c & 0x3f)) << 24)
    }
    c = 0xfffd // a lone surrogate, as TextEncoder writes it
  }
  return (0xe0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3f)) << 8) | ((0x80 | (c & 0x3f)) << 16)
}

/** How many bytes `utf8Word` packed, from the first one (its UTF-8 lead byte). */
export const utf8Length = (word: number): number => {
  const lead = word & 0xff
  return lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4
}

/**
 * Resumes from a state, feeds the UTF-8 bytes of `s`, and finalises: the whole hot path in one
 * function. Returns the hash as a *signed* int32: an unsigned value above 2^31 would be boxed as a
 * heap number on every call, while callers only need `>>> 0` inside their own arithmetic.
 */
export const hashFromSigned = (state: Murmur3State, s: string): number =>
  hashRest(state.h, state.tail, state.tailBytes, state.length, s)

/**
 * `hashFromSigned` with the state spread into arguments. The bucketer calls this directly: the
 * function is far above V8's inlining size limit, so it always stays one out-of-line call and no
 * wrapper around it spends the caller's inlining budget (see bench/LOG.md, Evaluator).
 */
export const hashRest = (h: number, tail: number, tailBytes: number, length: number, s: string): number => {
  const n = s.length
  let i = 0
  // Fast path: four ASCII characters are four bytes, one block. The number of pending tail bytes
  // does not change across a whole block, so the shift is loop-invariant.
  const shift = tailBytes << 3
  while (i + 4 <= n) {
    const c0 = s.charCodeAt(i)
    const c1 = s.charCodeAt(i + 1)
    const c2 = s.charCodeAt(i + 2)
    const c3 = s.charCodeAt(i + 3)
    if ((c0 | c1 | c2 | c3) >= 0x80) break
    const w = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24)
    if (shift === 0) {
      h = mixBlock(h, w)
    } else {
      h = mixBlock(h, tail | (w << shift))
      tail = w >>> (32 - shift)
    }
    i += 4
    length += 4
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i)
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
    // Two to four UTF-8 bytes, packed little-endian (a surrogate pair is one character of four).
    const bytes = utf8Word(s, i)
    const count = utf8Length(bytes)
    if (count === 4) i++
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
  if (tailBytes > 0) {
    let k = Math.imul(tail, C1)
    k = (k << 15) | (k >>> 17)
    k = Math.imul(k, C2)
    h ^= k
  }
  h ^= length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h | 0
}

const encoder = new TextEncoder()

/**
 * The state after hashing `prefix` with `seed`, to resume from with `hashFrom`. Not on the hot
 * path (once per rollout, at compile time), so it takes the plain route: TextEncoder, then blocks.
 * The golden vectors and a property test check that both routes agree.
 */
export const prefixState = (prefix: string, seed = 0): Murmur3State => {
  const bytes = encoder.encode(prefix)
  let h = seed | 0
  const blocks = bytes.length - (bytes.length % 4)
  for (let i = 0; i < blocks; i += 4) {
    h = mixBlock(h, bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24))
  }
  let tail = 0
  for (let i = blocks; i < bytes.length; i++) tail |= bytes[i]! << ((i - blocks) << 3)
  return Object.freeze({ h, tail, tailBytes: bytes.length - blocks, length: bytes.length })
}

/** murmurhash3_x86_32(utf8(prefix + rest)) where `state` is `prefixState(prefix, seed)`; unsigned 32-bit. */
export const hashFrom = (state: Murmur3State, rest: string): number =>
  hashRest(state.h, state.tail, state.tailBytes, state.length, rest) >>> 0

/** murmurhash3_x86_32 of the UTF-8 bytes of `input`, as an unsigned 32-bit integer. */
export const murmur3 = (input: string, seed = 0): number => hashRest(seed | 0, 0, 0, 0, input) >>> 0
