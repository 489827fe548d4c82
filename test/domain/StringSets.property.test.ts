import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as StringSets from "../../src/domain/conditions/StringSets.js"

// A small alphabet (with a surrogate pair, compared as code units like String.prototype) makes
// overlaps, shared prefixes and failure links common.
const text = fc.array(fc.constantFrom("a", "b", "ab", "😀", "\ud83d"), { maxLength: 8 }).map((parts) => parts.join(""))
const values = fc.array(text, { minLength: 1, maxLength: 12 })

describe("StringSets answer exactly as the String methods over every value", () => {
  it.prop("anySubstring = some includes", [values, text], ([vs, input]) => {
    expect(StringSets.anySubstring(vs)(input)).toBe(vs.some((v) => input.includes(v)))
  }, { fastCheck: { numRuns: 3000 } })

  it.prop("anyPrefix = some startsWith", [values, text], ([vs, input]) => {
    expect(StringSets.anyPrefix(vs)(input)).toBe(vs.some((v) => input.startsWith(v)))
  }, { fastCheck: { numRuns: 3000 } })

  it.prop("anySuffix = some endsWith", [values, text], ([vs, input]) => {
    expect(StringSets.anySuffix(vs)(input)).toBe(vs.some((v) => input.endsWith(v)))
  }, { fastCheck: { numRuns: 3000 } })

  it("contains with the most values against long strings reads each string once", () => {
    const many = Array.from({ length: 500 }, (_, i) => `value-${i}-` + "x".repeat(200))
    const test = StringSets.anySubstring(many)
    // Every value almost occurs, again and again: each one's prefix up to its last character does.
    const input = ("value-1-" + "x".repeat(199) + "!").repeat(5).slice(0, 1024)
    const start = performance.now()
    for (let i = 0; i < 100; i++) expect(test(input)).toBe(false)
    expect(performance.now() - start).toBeLessThan(500)
  })
})
