/**
 * A segment's key list as an SDK downloads it (`GET /v1/config/segments/{segment}/{list}`): never
 * the keys, only their salted hashes (KeySet.ts), whole or as the change since a version the SDK
 * holds. Binary, because a million hashes are 8 MB raw and would be a third more as base64 (and
 * hashes do not compress); a one-key change is under a hundred bytes. Little-endian throughout:
 *
 * ```
 *  0  "FPKL"           magic
 *  4  u8   1          this layout
 *  5  u8   scheme     the hash (KEY_HASH_SCHEME)
 *  6  u8   kind       0: the whole list; 1: the change since `since`
 *  7  u8   0
 *  8  f64  version    the list's version this body brings the holder to
 * 16  f64  since      the version a change applies to (0 for a whole list)
 * 24  u32  added      pairs of `added` (the whole list: every hash)
 * 28  u32  removed    pairs of `removed` (the whole list: 0)
 * 32  u32  saltBytes  the salt's UTF-8 length
 * 36  salt, then zero bytes up to a multiple of 4
 *     added pairs (high, low as u32), then removed pairs
 * ```
 *
 * A change is applied as `KeySet.withChanges(added, removed)` to the list at `since` and under the
 * same salt; anything else is a whole list. Pure (no Node, no Effect): the server writes it, the
 * SDK reads it.
 */
import { KEY_HASH_SCHEME } from "./KeySet.js"

const MAGIC = 0x4c4b5046 // "FPKL" read as a little-endian u32
const LAYOUT = 1
const HEADER = 36

export type KeyListBody =
  | { readonly kind: "full"; readonly salt: string; readonly version: number; readonly hashes: Uint32Array }
  | {
    readonly kind: "delta"
    readonly salt: string
    readonly version: number
    readonly since: number
    readonly added: Uint32Array
    readonly removed: Uint32Array
  }

const padded = (n: number) => (n + 3) & ~3

/** The body's bytes. */
export const encodeKeyList = (body: KeyListBody): Uint8Array => {
  const salt = new TextEncoder().encode(body.salt)
  const added = body.kind === "full" ? body.hashes : body.added
  const removed = body.kind === "full" ? new Uint32Array(0) : body.removed
  const start = HEADER + padded(salt.length)
  const bytes = new Uint8Array(start + (added.length + removed.length) * 4)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, MAGIC, true)
  view.setUint8(4, LAYOUT)
  view.setUint8(5, KEY_HASH_SCHEME)
  view.setUint8(6, body.kind === "full" ? 0 : 1)
  view.setFloat64(8, body.version, true)
  view.setFloat64(16, body.kind === "full" ? 0 : body.since, true)
  view.setUint32(24, added.length / 2, true)
  view.setUint32(28, removed.length / 2, true)
  view.setUint32(32, salt.length, true)
  bytes.set(salt, HEADER)
  let at = start
  for (const words of [added, removed]) {
    for (let i = 0; i < words.length; i++, at += 4) view.setUint32(at, words[i]!, true)
  }
  return bytes
}

/** `count` words from `at`, little-endian whatever the platform. */
const words = (view: DataView, at: number, count: number): Uint32Array => {
  const out = new Uint32Array(count)
  for (let i = 0; i < count; i++) out[i] = view.getUint32(at + i * 4, true)
  return out
}

/** The body, or why it cannot be used (a truncated or foreign body, a hash this code does not compute). */
export const decodeKeyList = (bytes: Uint8Array): KeyListBody | string => {
  if (bytes.length < HEADER) return "the key list is truncated"
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== MAGIC || view.getUint8(4) !== LAYOUT) return "the key list is not in a layout this SDK reads"
  if (view.getUint8(5) !== KEY_HASH_SCHEME) return `the key list is hashed by scheme ${view.getUint8(5)}, this SDK computes ${KEY_HASH_SCHEME}`
  const kind = view.getUint8(6)
  const version = view.getFloat64(8, true)
  const since = view.getFloat64(16, true)
  const added = view.getUint32(24, true)
  const removed = view.getUint32(28, true)
  const saltBytes = view.getUint32(32, true)
  const start = HEADER + padded(saltBytes)
  if (kind > 1 || !Number.isSafeInteger(version) || !Number.isSafeInteger(since) || (kind === 0 && removed !== 0)) return "the key list's header is invalid"
  if (bytes.length !== start + (added + removed) * 8) return "the key list is truncated"
  const salt = new TextDecoder().decode(bytes.subarray(HEADER, HEADER + saltBytes))
  const addedHashes = words(view, start, added * 2)
  if (kind === 0) return { kind: "full", salt, version, hashes: addedHashes }
  return { kind: "delta", salt, version, since, added: addedHashes, removed: words(view, start + added * 8, removed * 2) }
}
