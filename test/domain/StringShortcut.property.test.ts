/**
 * The evaluator's string shortcut (`testString`) must answer exactly as the one wrapper
 * (`testAttribute`) for every string value and every operator that takes it: the shortcut is a
 * speed-up, never a second semantics.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Re2 from "../../src/domain/conditions/Re2.js"
import { hasStringShortcut, OPERATORS, testAttribute, testString } from "../../src/domain/evaluation/Operators.js"

const withShortcut = Object.entries(OPERATORS).filter(([, op]) => hasStringShortcut(op))

// Short strings over a small alphabet, so values and attributes often overlap or share affixes.
const text = fc.string({ unit: fc.constantFrom("a", "b", "é", "😀", "."), maxLength: 6 })
const jsonValue = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 2 }), fc.dictionary(text, text, { maxKeys: 2 }))
// Up to 12 values: both sides of the few-strings scan limit (8).
const values = fc.array(fc.oneof(text, jsonValue), { maxLength: 12 })

describe("string shortcut", () => {
  it("covers in, notIn and the string operators, and nothing that parses strings", () => {
    expect(withShortcut.map(([name]) => name).sort()).toEqual(["contains", "endsWith", "in", "matches", "notIn", "startsWith"])
  })

  it.each(withShortcut)("%s: testString agrees with testAttribute", (_, op) => {
    fc.assert(
      fc.property(values, text, (raw, value) => {
        const prepared = op.prepare(raw, Re2.engine)
        expect(testString(op, value, prepared)).toBe(testAttribute(op, value, prepared))
      }),
      { numRuns: 500 }
    )
  })
})
