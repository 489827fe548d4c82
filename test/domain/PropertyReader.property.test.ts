/**
 * Generated property readers (PropertyReader.ts) put attribute names into generated source, so
 * they must read exactly what the plain keyed load reads, for any name at all: quotes,
 * backslashes, line and paragraph separators, lone surrogates, `__proto__`, numeric names.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { keyedReader, propertyReader } from "../../src/domain/evaluation/jit/PropertyReader.js"

const awkward = ["", "\"", "'", "\\", "`", "${x}", "\u2028", "\u2029", "\ud800", "a\"];globalThis.pwned=1;//", "__proto__", "constructor", "0", "1e3", "length"]

describe("property readers", () => {
  it.each(awkward)("name %j: the generated reader reads what the keyed load reads", (name) => {
    const record = JSON.parse(`{${JSON.stringify(name)}: 42, "other": 1}`) as object
    expect(propertyReader(name)(record)).toBe(keyedReader(name)(record))
    expect(propertyReader(name)({ other: 1 })).toBe(keyedReader(name)({ other: 1 }))
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
  })

  it("agrees with the keyed load for arbitrary names and records", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 12 }), fc.dictionary(fc.string({ unit: "binary", maxLength: 12 }), fc.jsonValue()), (name, record) => {
        expect(propertyReader(name)(record)).toBe(keyedReader(name)(record))
        expect(propertyReader(name)({ ...record, [name]: "present" })).toBe("present")
      }),
      { numRuns: 1000 }
    )
  })

  it("gives one reader per name", () => {
    expect(propertyReader("country")).toBe(propertyReader("country"))
    expect(propertyReader("country")).not.toBe(propertyReader("plan"))
  })
})
