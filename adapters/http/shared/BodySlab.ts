/**
 * Answer bodies as UTF-8 bytes in slices of a shared slab, as node's own Buffer pool does for
 * strings under 4 KiB; a 50-flag answer is larger, and `Buffer.from` then allocates a buffer of
 * its own per answer (2 to 4 µs here). A slice is never written again once handed out; a slab is
 * replaced when full and freed once its last slice is.
 *
 * Two ways in:
 *
 * - `encodeBody(string)`: a finished string (with room for three bytes per UTF-16 unit, UTF-8's
 *   most, it is written without measuring it first);
 * - `beginBody()`, then `putBytes`/`putString`/`putByte`, then `endBody()`: a body assembled from
 *   pieces already held as bytes (the evaluation routes' cached per-result fragments). Writing
 *   the pieces as bytes skips the string a concatenation would build: V8 keeps such a string as a
 *   tree of its pieces and flattens it when it is encoded, which cost more than the encoding
 *   itself (bench/LOG.md, "HTTP: bodies as bytes").
 *
 * Everything here is synchronous and a body is begun and ended in one call stack, so one body is
 * written at a time; a body abandoned half-way (an exception between `beginBody` and `endBody`)
 * leaves nothing behind: its bytes are not handed out, and the next body writes over them.
 */

// A slice still queued on a stalled socket keeps its whole slab alive: slabs are kept small (256
// KiB), so a few slow clients pin little, while a 50-flag answer still fits many times in one.
const SLAB_BYTES = 1 << 18
const SLAB_LARGEST = SLAB_BYTES >>> 3
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES)
/** Bytes of the slab handed out (8-aligned). */
let slabUsed = 0

/** `body` as UTF-8 bytes. */
export const encodeBody = (body: string): Buffer => {
  const room = body.length * 3
  if (room > SLAB_LARGEST) return Buffer.from(body)
  if (slabUsed + room > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES)
    slabUsed = 0
  }
  const start = slabUsed
  const written = slab.write(body, start)
  // The next slice starts 8-aligned, as the pool's do.
  slabUsed = (start + written + 7) & ~7
  return slab.subarray(start, start + written)
}

/** Where the body being written starts in the slab, and where its next byte goes. */
let start = 0
let at = 0

/** Starts a body (abandoning one begun and not ended: see above). */
export const beginBody = (): void => {
  start = slabUsed
  at = slabUsed
}

/**
 * Room for `n` more bytes: when the slab cannot hold them, the body so far moves to a new slab
 * (of the usual size, or twice what the body needs when it is larger; such a slab holds that
 * body alone, see `endBody`).
 */
const room = (n: number): void => {
  if (at + n <= slab.length) return
  const written = at - start
  const next = Buffer.allocUnsafeSlow(written + n <= SLAB_BYTES ? SLAB_BYTES : 2 * (written + n))
  slab.copy(next, 0, start, at)
  slab = next
  slabUsed = 0
  start = 0
  at = written
}

/** Appends bytes. */
export const putBytes = (bytes: Uint8Array): void => {
  room(bytes.length)
  slab.set(bytes, at)
  at += bytes.length
}

/** Appends bytes but the first `skip` of them. */
export const putBytesAfter = (bytes: Uint8Array, skip: number): void => {
  room(bytes.length - skip)
  slab.set(bytes.subarray(skip), at)
  at += bytes.length - skip
}

/** Appends a string as UTF-8. */
export const putString = (text: string): void => {
  room(text.length * 3)
  at += slab.write(text, at)
}

/** Appends one byte (an ASCII character's code). */
export const putByte = (byte: number): void => {
  room(1)
  slab[at++] = byte
}

/** The body written since `beginBody`, handed out. */
export const endBody = (): Buffer => {
  const body = slab.subarray(start, at)
  if (slab.length > SLAB_BYTES) {
    // An oversized slab holds this one body: later ones go to a slab of the usual size.
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES)
    slabUsed = 0
  } else slabUsed = (at + 7) & ~7
  return body
}
