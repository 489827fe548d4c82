import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as SafeRegex from "../../src/domain/conditions/SafeRegex.js"

describe("SafeRegex.check (on write)", () => {
  it.each([
    "^[a-z]+@example\\.com$",
    "^(foo|bar)\\d{2,3}$",
    "Chrome/\\d+",
    "^\\w[\\w.-]*$",
    "^(?:ab)+$",
    "^(?<name>x)y$",
    "\\bcat\\b",
    "^[^\\s@]+@[^\\s@]+$",
    "\\u{1F600}|\\uD83D\\uDE00",
    "^a*b*c*$",
    "colou?r",
    "^(a|b|c)*$"
  ])("accepts %s", (pattern) => {
    expect(SafeRegex.check(pattern)).toBeUndefined()
  })

  it.each([
    ["^(a+)+$", /nested quantifiers/],
    ["(a*)*", /nested quantifiers/],
    ["(\\w+\\s?)+$", /nested quantifiers/],
    ["^(a|a)*$", /same character/],
    ["^(a|ab)+$", /same character/],
    ["(\\d|[0-9a-f])+", /same character/],
    ["(a)\\1", /backreferences/],
    ["(?<x>a)\\k<x>", /backreferences/],
    ["(?=a)b", /lookahead/],
    ["(?<!a)b", /lookbehind/],
    ["\\p{L}+", /property escapes/],
    ["[z-a]", /not a valid regular expression/],
    ["(unclosed", /not a valid regular expression/],
    ["a{101}", /repetition bound/],
    ["x".repeat(501), /longer than/],
    ["((a{20}b){20}c){20}", /too large|nested/],
    ["[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}", /too large/]
  ] as const)("refuses %s", (pattern, why) => {
    expect(SafeRegex.check(pattern)).toMatch(why)
  })
})

describe("SafeRegex evaluation (linear time)", () => {
  it("the classic evil pattern ^(a+)+$ on a long non-matching input finishes fast", () => {
    const evil = SafeRegex.compile("^(a+)+$")
    const input = "a".repeat(SafeRegex.MAX_INPUT_LENGTH - 1) + "!"
    const start = performance.now()
    expect(evil.test(input)).toBe(false)
    expect(evil.test("a".repeat(30))).toBe(true)
    // A backtracking engine needs about 2^4095 steps here; the simulation needs a few milliseconds.
    expect(performance.now() - start).toBeLessThan(1000)
  })

  it("other catastrophic shapes stay fast too", () => {
    const input = "a".repeat(4000) + "b"
    const cases = [
      ["(a|a)*c", false],
      ["(a*)*c", false],
      ["^(a|aa)+$", false],
      ["(.*a){20}", true]
    ] as const
    for (const [p, expected] of cases) {
      const start = performance.now()
      expect(SafeRegex.compile(p).test(input)).toBe(expected)
      expect(performance.now() - start).toBeLessThan(1000)
    }
  })

  it("inputs longer than the limit never match", () => {
    expect(SafeRegex.compile("a").test("a".repeat(SafeRegex.MAX_INPUT_LENGTH + 1))).toBe(false)
  })

  // The engine must agree with ECMAScript (`u` mode) on every pattern it accepts.
  const patterns = [
    "^[a-z]+@example\\.com$",
    "^(foo|bar)\\d{2,3}$",
    "b+c",
    "\\bab",
    "ab\\B",
    "^$",
    "a|^$",
    "[^abc]{2}",
    "^.{0,3}$",
    "(ab|cd)*e?$",
    "\\d\\s\\w",
    "[\\d-]+x",
    "^a?b?c?$",
    "😀.",
    "^(?:a|b)c{1,}$",
    "[A-Za-z]{2,}-[0-9]+"
  ]
  const alphabet = fc.constantFrom("a", "b", "c", "d", "e", "x", "-", "1", "2", " ", "@", ".", "😀", "é", "\n", "_")
  it.prop(
    "agrees with RegExp on accepted patterns",
    [fc.constantFrom(...patterns), fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join(""))],
    ([pattern, input]) => {
      expect(SafeRegex.compile(pattern).test(input)).toBe(new RegExp(pattern, "u").test(input))
    },
    { fastCheck: { numRuns: 2000 } }
  )
})
