/**
 * The context's size limit (`contextSize`, characters of JSON) is checked without encoding the
 * context when a bound added up during the limits' walk shows it fits (ContextLimits.ts): a
 * context the check accepts always encodes within the limit, and one that encodes past it is
 * always refused with the size problem, whatever its strings (escapes, surrogates), numbers
 * (exponents) and shapes.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { contextLimitProblem } from "../../src/domain/evaluation/ContextLimits.js"
import { limit } from "../../src/domain/Limits.js"

/** Characters that encode to more than themselves (escapes, lone surrogates), and ordinary ones. */
const char = fc.oneof(
  fc.constantFrom("\u0000", "\u0001", "\u001f", "\n", "\"", "\\", "\ud800", "\udfff", "é", "𝄞", "\u2028"),
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 })
)
const text = (maxLength: number) =>
  fc.oneof(
    fc.string({ unit: char, maxLength }),
    fc.tuple(char, fc.integer({ min: 0, max: maxLength })).map(([c, n]) => c.repeat(n).slice(0, maxLength))
  )
const number = fc.oneof(fc.double(), fc.constantFrom(1e20, -1e20, 9e15, 1e21, -1.2345678901234567e-6, 5e-324, Number.MAX_VALUE, -0, NaN, Infinity))
const scalar = fc.oneof(text(1024), number, fc.boolean(), fc.constant(null))
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, fc.array(tie("value"), { maxLength: 30 }), fc.dictionary(text(20), tie("value"), { maxKeys: 10 }))
})).value
const attributes = fc.oneof(
  fc.dictionary(text(40), value, { maxKeys: 14 }),
  fc.dictionary(text(10), text(1024), { minKeys: 6, maxKeys: 14 }),
  fc.dictionary(text(10), fc.array(number, { maxLength: 100 }), { maxKeys: 14 }),
  fc.dictionary(text(10), value, { maxKeys: 5 }).map((a) => Object.assign(Object.create(null) as object, a)),
  value
)
const context = fc.oneof(
  fc.record({ key: text(1024), attributes }),
  fc.record({ key: fc.oneof(text(1024), scalar, value), attributes: fc.option(attributes, { nil: undefined }) }, { requiredKeys: [] }),
  fc.record({ key: text(100), attributes, extra: value })
)

describe("the context's size limit", () => {
  it.prop("accepted contexts encode within it; contexts past it get its problem", [context], ([ctx]) => {
    const problem = contextLimitProblem(ctx, "context")
    const size = JSON.stringify(ctx)?.length ?? 0
    if (problem === undefined) expect(size).toBeLessThanOrEqual(limit("contextSize"))
    else if (problem.path === "context") expect(problem.message).toBe(`must encode to at most 8,192 characters of JSON (this one has ${size.toLocaleString("en-US")})`)
  }, { fastCheck: { numRuns: 2_000 } })

  it("a context of escapes just past the limit is refused, one just within it accepted", () => {
    // "\u0001" encodes to 6 characters: 8 strings of 170 make 8 * (170 * 6 + 2) plus the names.
    const of = (n: number) => ({ key: "k", attributes: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`a${i}`, "\u0001".repeat(n)])) })
    const within = of(165)
    const past = of(171)
    expect(JSON.stringify(within).length).toBeLessThanOrEqual(8192)
    expect(contextLimitProblem(within, "context")).toBeUndefined()
    expect(JSON.stringify(past).length).toBeGreaterThan(8192)
    expect(contextLimitProblem(past, "context")?.message).toMatch(/^must encode to at most 8,192 characters/)
  })
})
