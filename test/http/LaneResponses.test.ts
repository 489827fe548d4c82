/**
 * A lane answer's string body is encoded into slices of a shared slab (serving/LaneResponses.ts):
 * the bytes are Buffer.from's, and a slice handed out is never overwritten by later answers.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { encodeBody } from "../../adapters/http/serving/LaneResponses.js"

describe("encodeBody", () => {
  it.prop("gives Buffer.from's bytes for any string (lone surrogates, astral characters, large bodies)", [
    fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme", maxLength: 200 }), fc.string({ minLength: 20_000, maxLength: 30_000 }))
  ], ([body]) => {
    expect(Buffer.compare(encodeBody(body), Buffer.from(body))).toBe(0)
  }, { fastCheck: { numRuns: 300 } })

  it("keeps every slice as it was while later bodies fill and replace the slab", () => {
    const kept: Array<readonly [Buffer, string]> = []
    // 3 MiB of bodies of 1 to 20 KiB: several slabs filled and replaced.
    for (let i = 0; i < 400; i++) {
      const body = `{"n":${i},"s":"${"é€x".repeat(1 + ((i * 97) % 2000))}"}`
      kept.push([encodeBody(body), body])
    }
    for (const [bytes, body] of kept) expect(bytes.toString("utf8")).toBe(body)
  })
})
