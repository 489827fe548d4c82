/**
 * `evaluateAll`'s record built by a generated object literal (jit/RecordFactory.ts) is the record
 * the plain loop builds: the same entries in the same order, for any snapshot and context, and for
 * keys that are awkward in source text (quotes, backslashes, separators, numeric names). Where the
 * literal would be wrong or pointless (`__proto__`, no keys, too many) there is none, and the loop
 * answers.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import * as RecordFactory from "../../src/domain/evaluation/jit/RecordFactory.js"
import { contextArbitrary, snapshotArbitrary } from "./arbitraries.js"

/** The plain version: the loop `evaluateAll` runs when a snapshot has no generated builder. */
const byLoop = (keys: ReadonlyArray<string>, flags: ReadonlyArray<number>, context: number): Record<string, string> => {
  const out: Record<string, string> = {}
  keys.forEach((key, i) => {
    out[key] = `${flags[i]}:${context}`
  })
  return out
}

const awkward = ["", "\"", "'", "\\", "`", "${x}", "\u2028", "\u2029", "\ud800", "a\"];globalThis.pwned=1;//", "constructor", "0", "10", "1e3", "-1", "length"]

describe("evaluateAll's generated record", () => {
  it.prop(
    "equals the plain loop's record, entries and their order, for any snapshot and context",
    [snapshotArbitrary, contextArbitrary],
    ([snap, context]) => {
      const compiled = Evaluate.compile(snap)
      const generated = Evaluate.evaluateAll(compiled, context)
      const looped = Evaluate.evaluateAll({ ...compiled, record: null }, context)
      expect(Object.keys(generated)).toEqual(Object.keys(looped))
      expect(generated).toEqual(looped)
    },
    { fastCheck: { numRuns: 200 } }
  )

  it("writes awkward keys as the loop stores them, evaluating in key order", () => {
    const keys = [...awkward, ...awkward.map((key) => `${key}-2`)]
    const build = RecordFactory.make<number, number, string>(keys)
    expect(build).not.toBeNull()
    const order: Array<number> = []
    const flags = keys.map((_, i) => i)
    const record = build!((flag, context) => (order.push(flag), `${flag}:${context}`), flags, 7)
    expect(order).toEqual(flags)
    expect(Object.keys(record)).toEqual(Object.keys(byLoop(keys, flags, 7)))
    expect(record).toEqual(byLoop(keys, flags, 7))
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined()
  })

  it("agrees with the loop on arbitrary distinct keys", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: "binary", maxLength: 8 }).filter((key) => key !== "__proto__"), { minLength: 1, maxLength: 30 }), (keys) => {
        const flags = keys.map((_, i) => i)
        const record = RecordFactory.make<number, number, string>(keys)!((flag, context) => `${flag}:${context}`, flags, 3)
        expect(Object.entries(record)).toEqual(Object.entries(byLoop(keys, flags, 3)))
      }),
      { numRuns: 500 }
    )
  })

  it("leaves `__proto__`, no keys and more than 1,000 keys to the loop", () => {
    expect(RecordFactory.make(["a", "__proto__"])).toBeNull()
    expect(RecordFactory.make([])).toBeNull()
    expect(RecordFactory.make(Array.from({ length: 1001 }, (_, i) => `k${i}`))).toBeNull()
    expect(RecordFactory.make(Array.from({ length: 1000 }, (_, i) => `k${i}`))).not.toBeNull()
  })
})
