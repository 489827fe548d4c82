/**
 * The one Text rule: `isWellFormed` (the engine's `String.prototype.isWellFormed` where it has
 * one, the expression elsewhere; both are tested) agrees with the definition, every high surrogate followed by a low one and every low one
 * preceded by a high one, on strings rich in lone and paired surrogates.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isStorableText, isWellFormed, isWellFormedByExpression } from "../../src/domain/definitions/Text.js"

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff

/** The definition, code unit by code unit. */
const wellFormedByDefinition = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i)
    if (isHigh(unit)) {
      if (i + 1 < s.length && isLow(s.charCodeAt(i + 1))) i++
      else return false
    } else if (isLow(unit)) return false
  }
  return true
}

/** Code units drawn mostly from around the surrogate ranges, so lone and paired ones are common. */
const unit = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdbff }),
  fc.integer({ min: 0xdc00, max: 0xdfff }),
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0, max: 0xffff })
)
const text = fc.array(unit, { maxLength: 12 }).map((units) => String.fromCharCode(...units))

describe("Text", () => {
  it.each([
    ["isWellFormed", isWellFormed],
    ["the expression engines without the check use", isWellFormedByExpression]
  ])("%s agrees with the definition", (_, check) => {
    fc.assert(fc.property(text, (s) => check(s) === wellFormedByDefinition(s)), { numRuns: 5_000 })
  })

  it.each([
    ["", true],
    ["plain", true],
    ["\ud83d\ude00", true],
    ["\ud83d", false],
    ["\ude00", false],
    ["a\ude00\ud83d", false],
    ["\ud83d\ud83d\ude00", false]
  ])("isWellFormed(%j) is %s", (s, expected) => expect(isWellFormed(s)).toBe(expected))

  it("storable text has no NUL and no lone surrogate", () => {
    expect(isStorableText("a\u0000b")).toBe(false)
    expect(isStorableText("a\ud800")).toBe(false)
    expect(isStorableText("ok \ud83d\ude00")).toBe(true)
  })
})
