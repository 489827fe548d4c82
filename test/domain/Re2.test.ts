import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Re2 from "../../src/domain/conditions/Re2.js"

describe("Re2.syntaxProblem (on write): RE2 syntax, as Go, Rust and RE2/J accept it", () => {
  it.each([
    "^[a-z]+@example\\.com$",
    "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$",
    "(?i)^beta-",
    "^\\p{L}+$",
    "\\p{Greek}",
    "[[:alpha:]]+",
    "^(foo|bar)\\d{2,3}$",
    "Chrome/\\d+",
    "^(?:ab)+$",
    "^(?P<name>x)y$",
    "^(?<name>x)y$",
    "\\bcat\\b",
    "\\x{1F600}",
    "\\Qa.b\\E",
    // Shapes that backtracking engines explode on are ordinary for RE2 (no backtracking).
    "^(a+)+$",
    "(a|ab)*c"
  ])("accepts %s", (pattern) => {
    expect(Re2.syntaxProblem(pattern)).toBeUndefined()
  })

  it.each([
    ["(a)\\1", "invalid escape sequence: `\\1`"],
    ["(?=a)b", "invalid or unsupported Perl syntax: `(?=`"],
    ["(?<!a)b", "invalid named capture: `(?<!a)b`"],
    ["(unclosed", "missing closing ): `(unclosed`"],
    ["[z-a]", "invalid character class range: `z-a`"],
    ["a{1001}", "invalid repeat count: `{1001}`"],
    ["\\u{1F600}", "invalid escape sequence: `\\u`"],
    ["\\Qopen quote", "a \\Q quote must be closed with \\E"]
  ] as const)("refuses %s", (pattern, why) => {
    expect(Re2.syntaxProblem(pattern)).toBe(why)
  })

  it("measures a condition's patterns together, as they are evaluated", () => {
    const ipv4 = "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$"
    expect(Re2.programSize([ipv4])).toBeLessThan(Re2.programSize([ipv4, ipv4]))
    expect(Re2.programSize(["[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}0"])).toBeGreaterThan(700)
  })
})

describe("Re2.compile (evaluation): linear time, any of the patterns", () => {
  const test = (patterns: ReadonlyArray<string>, input: string) => Re2.compile(patterns)(input)

  it("matches the ordinary cases the hand-written engine refused", () => {
    const ipv4 = ["^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$"]
    expect(test(ipv4, "192.168.1.254")).toBe(true)
    expect(test(ipv4, "192.168.1")).toBe(false)
    expect(test(["(?i)^beta-"], "BETA-tester")).toBe(true)
    expect(test(["^beta-"], "BETA-tester")).toBe(false)
    expect(test(["^\\p{L}+$"], "Zoë")).toBe(true)
    expect(test(["^\\p{L}+$"], "Zoë2")).toBe(false)
  })

  it("keeps each pattern's flags and alternatives to itself", () => {
    expect(test(["(?i)a", "b"], "B")).toBe(false)
    expect(test(["(?i)a", "b"], "A")).toBe(true)
    expect(test(["^x|y$", "^z$"], "zz")).toBe(false)
    expect(test(["^x|y$", "^z$"], "ay")).toBe(true)
  })

  it("drops a stored pattern that is not RE2 (it never matches), keeping the others", () => {
    expect(test(["(a)\\1", "^ok$"], "ok")).toBe(true)
    expect(test(["(a)\\1"], "aa")).toBe(false)
    expect(test(["\\Qopen", "^ok$"], "ok")).toBe(true)
  })

  // The hostile inputs: a backtracking engine needs about 2^4095 steps for the first.
  it("the classic evil pattern ^(a+)+$ on a long non-matching input finishes fast", () => {
    const evil = Re2.compile(["^(a+)+$"])
    const start = performance.now()
    expect(evil("a".repeat(4095) + "!")).toBe(false)
    expect(evil("a".repeat(30))).toBe(true)
    expect(performance.now() - start).toBeLessThan(1000)
  })

  it("other catastrophic shapes stay fast too", () => {
    const input = "a".repeat(4000) + "b"
    const cases = [
      ["(a|a)*c", false],
      ["(a*)*c", false],
      ["^(a|aa)+$", false],
      ["(.*a){20}", true],
      ["\\d*\\d*\\d*x", false]
    ] as const
    for (const [p, expected] of cases) {
      const start = performance.now()
      expect(Re2.compile([p])(input)).toBe(expected)
      expect(performance.now() - start).toBeLessThan(1000)
    }
  })

  // Where RE2 and ECMAScript share syntax and meaning, they agree.
  const patterns = [
    "^[a-z]+@example\\.com$",
    "^(foo|bar)\\d{2,3}$",
    "b+c",
    "\\bab",
    "ab\\B",
    "^$",
    "a|^$",
    "[^abc]{2}",
    "(ab|cd)*e?$",
    "[\\d-]+x",
    "^a?b?c?$",
    "^(?:a|b)c{1,}$",
    "[A-Za-z]{2,}-[0-9]+"
  ]
  const alphabet = fc.constantFrom("a", "b", "c", "d", "e", "x", "-", "1", "2", " ", "@", ".", "_")
  it.prop(
    "agrees with RegExp on patterns both read the same way",
    [fc.constantFrom(...patterns), fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join(""))],
    ([pattern, input]) => {
      expect(Re2.compile([pattern])(input)).toBe(new RegExp(pattern).test(input))
    },
    { fastCheck: { numRuns: 2000 } }
  )
})
