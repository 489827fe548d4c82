import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Dates from "../../src/domain/conditions/Dates.js"
import * as Semver from "../../src/domain/conditions/Semver.js"

const cmp = (a: string, b: string) => Semver.compare(Semver.parse(a)!, Semver.parse(b)!)

describe("Semver", () => {
  // semver.org §11: 1.0.0-alpha < 1.0.0-alpha.1 < 1.0.0-alpha.beta < 1.0.0-beta < 1.0.0-beta.2 < 1.0.0-beta.11 < 1.0.0-rc.1 < 1.0.0
  const ordered = [
    "0.9.9",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.beta",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.0.1",
    "1.1.0",
    "1.10.0",
    "2.0.0",
    "10.0.0",
    "99999999999999999999.0.0"
  ]
  it("orders the specification's precedence example (every pair)", () => {
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        expect(cmp(ordered[i]!, ordered[j]!)).toBe(Math.sign(i - j))
      }
    }
  })

  it("ignores build metadata", () => {
    expect(cmp("1.0.0+001", "1.0.0+20130313144700")).toBe(0)
    expect(cmp("1.0.0-beta+exp.sha.5114f85", "1.0.0-beta")).toBe(0)
  })

  it.each(["1", "1.2", "1.2.3.4", "01.2.3", "1.02.3", "1.2.3-", "1.2.3-01", "1.2.3+", "v1.2.3", " 1.2.3", "1.2.3-a..b", ""])(
    "rejects %j",
    (s) => expect(Semver.parse(s)).toBeUndefined()
  )
  it.each(["0.0.0", "1.2.3-0", "1.2.3-0a", "1.2.3-alpha-1.x", "1.2.3+build-1.2", "1.2.3-rc.1+b"])("accepts %j", (s) =>
    expect(Semver.isValid(s)).toBe(true)
  )
  it("rejects non-strings", () => {
    for (const v of [1, null, undefined, {}, ["1.0.0"]]) expect(Semver.parse(v)).toBeUndefined()
  })

  const version = fc
    .tuple(fc.nat(20), fc.nat(20), fc.nat(20), fc.array(fc.oneof(fc.nat(20).map(String), fc.constantFrom("alpha", "beta", "rc")), { maxLength: 3 }))
    .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre.length ? "-" + pre.join(".") : ""}`)
  it.prop("compare is a total order: antisymmetric and transitive", [version, version, version], ([a, b, c]) => {
    expect(cmp(a, b)).toBe(-cmp(b, a) || 0)
    if (cmp(a, b) <= 0 && cmp(b, c) <= 0) expect(cmp(a, c)).toBeLessThanOrEqual(0)
  })
})

describe("Dates", () => {
  it.each([
    ["2026-11-21T23:43:57.123Z", Date.UTC(2026, 10, 21, 23, 43, 57, 123)],
    ["2026-11-21", Date.UTC(2026, 10, 21)],
    ["2026-11-21T23:43Z", Date.UTC(2026, 10, 21, 23, 43)],
    ["2026-11-21T23:43:57", Date.UTC(2026, 10, 21, 23, 43, 57)],
    ["2026-11-21T23:43:57+01:00", Date.UTC(2026, 10, 21, 22, 43, 57)],
    ["2026-11-21T23:43:57-0230", Date.UTC(2026, 10, 22, 2, 13, 57)],
    ["2026-11-21T23:43:57.123456789Z", Date.UTC(2026, 10, 21, 23, 43, 57, 123)],
    ["2024-02-29", Date.UTC(2024, 1, 29)],
    // Two-digit years stay in the first century (Date.UTC alone would read 0050 as 1950).
    ["0050-06-01T00:00:00Z", Date.parse("0050-06-01T00:00:00Z")],
    ["0000-01-01", Date.parse("0000-01-01T00:00:00Z")]
  ])("parses %s", (s, expected) => expect(Dates.parseIso(s)).toBe(expected))

  it.each(["2026-02-29", "2026-02-30", "2026-13-01", "2026-00-10", "2026-1-1", "21/11/2026", "Nov 21 2026", "2026-11-21T24:00:00Z", "2026-11-21T23:60Z", "1700000000000", ""])(
    "rejects %j",
    (s) => expect(Dates.parseIso(s)).toBeNaN()
  )

  it("accepts epoch milliseconds and nothing else that is not a string", () => {
    expect(Dates.toEpochMillis(0)).toBe(0)
    expect(Dates.toEpochMillis(1_700_000_000_000)).toBe(1_700_000_000_000)
    for (const v of [NaN, Infinity, true, null, undefined, {}]) expect(Dates.toEpochMillis(v)).toBeNaN()
  })

  it.prop("round-trips every Date.toISOString", [fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true })], ([d]) => {
    expect(Dates.parseIso(d.toISOString())).toBe(d.getTime())
  })
})
