/** Contexts reach the evaluator as JSON would carry them, and plain ones untouched (no copy). */
import { describe, expect, it } from "@effect/vitest"
import { forFlag, plainCheck, toLocalContext } from "../../adapters/client/JsonContext.js"

describe("toLocalContext", () => {
  it("passes a plain context through as the same object", () => {
    const context = { key: "u", attributes: { country: "DE", age: 42, beta: true, tags: ["a", 1], none: null } }
    expect(toLocalContext(context)).toBe(context)
    const bare = { key: "u" }
    expect(toLocalContext(bare)).toBe(bare)
  })

  it("converts what JSON converts: Date to ISO 8601, NaN to null, BigInt to a number or string; drops the rest", () => {
    const when = new Date("2026-01-02T03:04:05.678Z")
    const circular: Record<string, unknown> = {}
    circular.self = circular
    const converted = toLocalContext({
      key: "u",
      attributes: {
        signedUp: when,
        nested: { at: when },
        nan: Number.NaN,
        big: 12n,
        huge: 2n ** 70n,
        fn: () => 1,
        missing: undefined,
        circular,
        country: "DE"
      }
    })
    expect(converted).toEqual({
      key: "u",
      attributes: {
        signedUp: "2026-01-02T03:04:05.678Z",
        nested: { at: "2026-01-02T03:04:05.678Z" },
        nan: null,
        big: 12,
        huge: "1180591620717411303424",
        country: "DE"
      }
    })
  })

  it("never throws: no context, no attributes, hostile attributes", () => {
    expect(toLocalContext(undefined)).toEqual({})
    expect(toLocalContext(null)).toEqual({})
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error("boom") } })
    expect(toLocalContext({ key: "u", attributes: hostile })).toEqual({ key: "u" })
  })

  it("for one flag, checks only the attributes it reads: untouched when those are plain, converted when not", () => {
    const when = new Date("2026-01-02T03:04:05.678Z")
    const check = plainCheck(["signedUp", "constructor", 'we"ird\\name'])
    const unread = { key: "u", attributes: { other: when, country: "DE" } }
    expect(forFlag(unread, plainCheck(["signedUp", "country"]))).toBe(unread)
    expect(forFlag({ key: "u", attributes: { signedUp: when } }, check)).toEqual({ key: "u", attributes: { signedUp: "2026-01-02T03:04:05.678Z" } })
    expect(forFlag({ key: "u", attributes: { 'we"ird\\name': Number.NaN } }, check)).toEqual({ key: "u", attributes: { 'we"ird\\name': null } })
    // `constructor` is inherited by every object: read through the prototype it is not plain, so the
    // context is copied as JSON (own properties only) and the flag sees it absent, as the server would.
    expect(forFlag({ key: "u", attributes: { country: "DE" } }, check)).toEqual({ key: "u", attributes: { country: "DE" } })
    expect(plainCheck([])({ any: when })).toBe(true)
  })
})
