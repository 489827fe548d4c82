import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as StringSets from "../../src/domain/conditions/StringSets.js"

// A small alphabet (with a surrogate pair, compared as code units like String.prototype) makes
// overlaps, shared prefixes and failure links common.
const text = fc.array(fc.constantFrom("a", "b", "ab", "😀", "\ud83d"), { maxLength: 8 }).map((parts) => parts.join(""))
const values = fc.array(text, { minLength: 1, maxLength: 12 })

describe("StringSets answer exactly as startsWith / endsWith over every value", () => {
  it.prop("anyPrefix = some startsWith", [values, text], ([vs, input]) => {
    expect(StringSets.anyPrefix(vs)(input)).toBe(vs.some((v) => input.startsWith(v)))
  }, { fastCheck: { numRuns: 3000 } })

  it.prop("anySuffix = some endsWith", [values, text], ([vs, input]) => {
    expect(StringSets.anySuffix(vs)(input)).toBe(vs.some((v) => input.endsWith(v)))
  }, { fastCheck: { numRuns: 3000 } })

  it("startsWith with the most values sharing a long prefix costs one lookup per length", () => {
    const many = Array.from({ length: 500 }, (_, i) => "a".repeat(70) + String.fromCharCode(0x100 + i))
    const test = StringSets.anyPrefix(many)
    const inputs = Array.from({ length: 100 }, () => "a".repeat(76))
    expect(inputs.some(test)).toBe(false)
    expect(test("a".repeat(70) + String.fromCharCode(0x100 + 499) + "tail")).toBe(true)
  })
})
