/**
 * The depth guard read before any JSON body is parsed (shared/Body.ts): it says "too deep" exactly
 * when the parsed value nests arrays and objects past MAX_JSON_DEPTH, including near the bound
 * and with brackets inside strings (which its quick count of opening brackets does count).
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { MAX_JSON_DEPTH, nestsTooDeeply } from "../../adapters/http/shared/Body.js"

const depthOf = (value: unknown): number =>
  typeof value !== "object" || value === null ? 0 : 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))

/** A value nested `depth` levels, objects and arrays mixed, with bracket-laden strings beside. */
const nested = fc.tuple(fc.integer({ min: 0, max: MAX_JSON_DEPTH + 3 }), fc.array(fc.boolean(), { minLength: MAX_JSON_DEPTH + 3, maxLength: MAX_JSON_DEPTH + 3 }), fc.string({ unit: fc.constantFrom("{", "[", "]", "}", "\"", "\\", "a") }), fc.integer({ min: 0, max: 80 }))
  .map(([depth, kinds, noise, copies]) => {
    let value: unknown = noise
    for (let i = 0; i < depth; i++) value = kinds[i] ? [value, "[".repeat(copies)] : { v: value, w: "{".repeat(copies) }
    return value
  })

describe("nestsTooDeeply", () => {
  it.prop("is true exactly when the parsed value nests past MAX_JSON_DEPTH", [fc.oneof(nested, fc.jsonValue({ maxDepth: 4 }))], ([value]) => {
    const text = JSON.stringify(value)
    expect(nestsTooDeeply(text)).toBe(depthOf(JSON.parse(text)) > MAX_JSON_DEPTH)
  }, { fastCheck: { numRuns: 1000 } })

  it("counts brackets in strings for its quick check only", () => {
    expect(nestsTooDeeply(JSON.stringify({ s: "[".repeat(500) }))).toBe(false)
    expect(nestsTooDeeply("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH))).toBe(false)
    expect(nestsTooDeeply("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1))).toBe(true)
  })
})
