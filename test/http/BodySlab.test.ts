/**
 * Bodies written piece by piece into the shared slab (shared/BodySlab.ts): the bytes are the
 * pieces' in order, a body moves whole to a new slab when the slab cannot hold it, and a slice
 * handed out is never overwritten by later bodies (nor by one abandoned half-way).
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { beginBody, encodeBody, endBody, putByte, putBytes, putString } from "../../adapters/http/shared/BodySlab.js"

type Piece = { readonly bytes: Uint8Array } | { readonly text: string } | { readonly byte: number }

const piece: fc.Arbitrary<Piece> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ bytes })),
  fc.oneof(fc.string({ unit: "binary", maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 50 })).map((text) => ({ text })),
  fc.integer({ min: 0, max: 127 }).map((byte) => ({ byte })),
  // Now and then a piece large enough to fill a slab (256 KiB) or to outgrow one.
  fc.integer({ min: 40_000, max: 300_000 }).map((n) => ({ bytes: new Uint8Array(n).fill(n % 251) }))
)

const expectedOf = (pieces: ReadonlyArray<Piece>): Buffer =>
  Buffer.concat(pieces.map((p) => ("bytes" in p ? p.bytes : "text" in p ? Buffer.from(p.text) : Buffer.of(p.byte))))

const write = (pieces: ReadonlyArray<Piece>): Buffer => {
  beginBody()
  for (const p of pieces) {
    if ("bytes" in p) putBytes(p.bytes)
    else if ("text" in p) putString(p.text)
    else putByte(p.byte)
  }
  return endBody()
}

describe("BodySlab", () => {
  it.prop("a body's bytes are its pieces', and every slice handed out stays as it was", [
    fc.array(fc.record({ pieces: fc.array(piece, { maxLength: 12 }), abandon: fc.boolean(), encoded: fc.string({ maxLength: 100 }) }), { minLength: 1, maxLength: 30 })
  ], ([bodies]) => {
    const kept: Array<readonly [Buffer, Buffer]> = []
    for (const { abandon, encoded, pieces } of bodies) {
      kept.push([write(pieces), expectedOf(pieces)])
      // A body begun and never ended (an exception half-way) hands nothing out.
      if (abandon) {
        beginBody()
        putString("abandoned".repeat(50))
        putBytes(new Uint8Array(1000).fill(7))
      }
      kept.push([encodeBody(encoded), Buffer.from(encoded)])
    }
    for (const [bytes, expected] of kept) expect(Buffer.compare(bytes, expected)).toBe(0)
  }, { fastCheck: { numRuns: 200 } })

  it("an empty body is empty", () => {
    beginBody()
    expect(endBody().length).toBe(0)
  })
})
