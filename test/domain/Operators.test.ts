/**
 * Every operator of the contract's table, through the whole evaluator: a one-rule flag
 * serves RULE_MATCH when the condition holds and FALLTHROUGH when it does not.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import type { Condition, Operator } from "../../src/domain/definitions/Targeting.js"
import { flagWithCondition, snapshot } from "./fixtures.js"

type Case = readonly [description: string, condition: Condition, attributes: Record<string, unknown>, matches: boolean]

const c = (attribute: string, operator: Operator, values: ReadonlyArray<unknown>, negate?: boolean): Condition =>
  negate === undefined ? { attribute, operator, values } : { attribute, operator, values, negate }

const holds = (condition: Condition, attributes: Record<string, unknown>, key = "user-1"): boolean => {
  const compiled = Evaluate.compile(snapshot([flagWithCondition(condition)]))
  const result = Evaluate.evaluate(compiled, "flag", { key, attributes })
  expect(["RULE_MATCH", "FALLTHROUGH"]).toContain(result.reason.kind)
  return result.reason.kind === "RULE_MATCH"
}

const table = (name: string, cases: ReadonlyArray<Case>) =>
  describe(name, () => {
    it.each(cases)("%s", (_, condition, attributes, expected) => {
      expect(holds(condition, attributes)).toBe(expected)
    })
  })

table("in / notIn (strict JSON equality)", [
  ["string in list", c("country", "in", ["US", "CA"]), { country: "CA" }, true],
  ["string not in list", c("country", "in", ["US", "CA"]), { country: "DE" }, false],
  ['"1" is not 1', c("n", "in", [1]), { n: "1" }, false],
  ["1 is not \"1\"", c("n", "in", ["1"]), { n: 1 }, false],
  ["number in list", c("n", "in", [1, 2]), { n: 2 }, true],
  ["true is not \"true\"", c("b", "in", ["true"]), { b: true }, false],
  ["boolean in list", c("b", "in", [true]), { b: true }, true],
  ["objects compare deeply", c("o", "in", [{ a: 1, b: [1, 2] }]), { o: { b: [1, 2], a: 1 } }, true],
  ["objects differ", c("o", "in", [{ a: 1 }]), { o: { a: 1, b: 2 } }, false],
  ["an array attribute matches when any element is in", c("tags", "in", ["beta"]), { tags: ["alpha", "beta"] }, true],
  ["an array attribute with no element in", c("tags", "in", ["beta"]), { tags: ["alpha"] }, false],
  ["an empty array attribute", c("tags", "in", ["beta"]), { tags: [] }, false],
  ["notIn: equals none", c("country", "notIn", ["US", "CA"]), { country: "DE" }, true],
  ["notIn: equals one", c("country", "notIn", ["US", "CA"]), { country: "US" }, false],
  ["notIn: \"1\" is none of [1]", c("n", "notIn", [1]), { n: "1" }, true],
  ["absent attribute: in never matches", c("country", "in", ["US"]), {}, false],
  ["absent attribute: notIn never matches either", c("country", "notIn", ["US"]), {}, false],
  ["null counts as absent", c("country", "notIn", ["US"]), { country: null }, false],
  ["attribute `key` is the context key", c("key", "in", ["user-1"]), {}, true],
  ["attributes.key does not shadow the context key", c("key", "in", ["other"]), { key: "other" }, false],
  ["inherited properties are not attributes", c("constructor", "exists", []), {}, false],
  ["__proto__ is not an attribute", c("__proto__", "exists", []), {}, false]
])

table("negate", [
  ["negated match", c("country", "in", ["US"], true), { country: "US" }, false],
  ["negated non-match", c("country", "in", ["US"], true), { country: "DE" }, true],
  ["negate never makes an absent attribute match", c("country", "in", ["US"], true), {}, false],
  ["negate with exists on an absent attribute", c("country", "exists", [], true), {}, false],
  ["negate with exists on a present attribute", c("country", "exists", [], true), { country: "US" }, false],
  ["a wrong type does not match, so negated it does", c("age", "gt", [18], true), { age: "40" }, true],
  ["negate false is the default", c("country", "in", ["US"], false), { country: "US" }, true]
])

table("contains / startsWith / endsWith", [
  ["contains", c("email", "contains", ["@exa"]), { email: "me@example.com" }, true],
  ["contains any value", c("email", "contains", ["zzz", "mple"]), { email: "me@example.com" }, true],
  ["does not contain", c("email", "contains", ["zzz"]), { email: "me@example.com" }, false],
  ["startsWith", c("email", "startsWith", ["me@"]), { email: "me@example.com" }, true],
  ["does not start with", c("email", "startsWith", ["you@"]), { email: "me@example.com" }, false],
  ["endsWith", c("email", "endsWith", ["@example.com"]), { email: "me@example.com" }, true],
  ["does not end with", c("email", "endsWith", ["@example.org"]), { email: "me@example.com" }, false],
  ["case-sensitive", c("email", "endsWith", ["@EXAMPLE.COM"]), { email: "me@example.com" }, false],
  ["a number is the wrong type", c("n", "contains", ["1"]), { n: 1 }, false],
  ["an array matches when any element does", c("emails", "endsWith", [".org"]), { emails: ["a@b.com", "c@d.org"] }, true],
  ["unicode", c("name", "startsWith", ["Zoë"]), { name: "Zoë Smith" }, true]
])

table("matches (RE2 regular expressions)", [
  ["anchored match", c("email", "matches", ["^[a-z]+@example\\.com$"]), { email: "me@example.com" }, true],
  ["anchored non-match", c("email", "matches", ["^[a-z]+@example\\.com$"]), { email: "me2@example.com" }, false],
  ["unanchored search", c("ua", "matches", ["Chrome/\\d+"]), { ua: "Mozilla/5.0 Chrome/120 Safari" }, true],
  ["any of several patterns", c("v", "matches", ["^x", "y$"]), { v: "aay" }, true],
  ["alternation", c("v", "matches", ["^(foo|bar)-\\d{2,3}$"]), { v: "bar-123" }, true],
  ["counted repetition upper bound", c("v", "matches", ["^(foo|bar)-\\d{2,3}$"]), { v: "bar-1234" }, false],
  ["a number is the wrong type", c("v", "matches", ["1"]), { v: 1 }, false],
  ["the evil pattern of backtracking engines evaluates in linear time", c("v", "matches", ["^(a+)+$"]), { v: "a".repeat(4000) + "!" }, false],
  ["... and still matches what it should", c("v", "matches", ["^(a+)+$"]), { v: "a".repeat(4000) }, true],
  ["IPv4", c("ip", "matches", ["^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$"]), { ip: "10.0.0.1" }, true],
  ["(?i)", c("v", "matches", ["(?i)^beta-"]), { v: "BETA-x" }, true],
  ["\\p{L}", c("v", "matches", ["^\\p{L}+$"]), { v: "Zoë" }, true],
  ["a stored pattern that is not RE2 never matches", c("v", "matches", ["(a)\\1"]), { v: "aa" }, false]
])

table("lt / lte / gt / gte", [
  ["lt", c("age", "lt", [18]), { age: 17 }, true],
  ["lt boundary", c("age", "lt", [18]), { age: 18 }, false],
  ["lte boundary", c("age", "lte", [18]), { age: 18 }, true],
  ["gt", c("age", "gt", [18]), { age: 18.5 }, true],
  ["gt boundary", c("age", "gt", [18]), { age: 18 }, false],
  ["gte boundary", c("age", "gte", [18]), { age: 18 }, true],
  ["any value: lt any of [10, 20]", c("age", "lt", [10, 20]), { age: 15 }, true],
  ["a numeric string is the wrong type", c("age", "gt", [18]), { age: "40" }, false],
  ["a boolean is the wrong type", c("age", "gt", [0]), { age: true }, false],
  ["negative numbers", c("t", "lt", [-1]), { t: -5 }, true],
  ["array: any element", c("scores", "gte", [90]), { scores: [10, 95] }, true]
])

table("before / after (ISO 8601 or epoch ms)", [
  ["ISO before ISO", c("signup", "before", ["2026-01-01T00:00:00Z"]), { signup: "2025-12-31T23:59:59.999Z" }, true],
  ["ISO not before itself", c("signup", "before", ["2026-01-01T00:00:00Z"]), { signup: "2026-01-01T00:00:00.000Z" }, false],
  ["ISO after ISO", c("signup", "after", ["2026-01-01"]), { signup: "2026-01-01T00:00:00.001Z" }, true],
  ["epoch ms attribute vs ISO value", c("signup", "before", ["2026-01-01T00:00:00Z"]), { signup: Date.UTC(2025, 11, 31) }, true],
  ["ISO attribute vs epoch ms value", c("signup", "after", [Date.UTC(2026, 0, 1)]), { signup: "2026-01-02" }, true],
  ["offsets are honoured", c("t", "before", ["2026-01-01T00:00:00Z"]), { t: "2026-01-01T00:30:00+01:00" }, true],
  ["a date-time without offset is UTC", c("t", "after", ["2026-01-01T10:00:00Z"]), { t: "2026-01-01T10:00:01" }, true],
  ["an impossible date does not match", c("t", "before", ["2030-01-01"]), { t: "2026-02-30" }, false],
  ["a non-date string does not match", c("t", "before", ["2030-01-01"]), { t: "yesterday" }, false],
  ["a boolean does not match", c("t", "before", ["2030-01-01"]), { t: true }, false]
])

table("semverEq / semverLt / semverGt (semver 2.0 precedence)", [
  ["equal", c("v", "semverEq", ["1.2.3"]), { v: "1.2.3" }, true],
  ["build metadata is ignored", c("v", "semverEq", ["1.2.3"]), { v: "1.2.3+build.7" }, true],
  ["not equal", c("v", "semverEq", ["1.2.3"]), { v: "1.2.4" }, false],
  ["numeric, not lexical", c("v", "semverLt", ["1.10.0"]), { v: "1.9.0" }, true],
  ["a pre-release is lower than its release", c("v", "semverLt", ["1.0.0"]), { v: "1.0.0-rc.1" }, true],
  ["alpha < beta", c("v", "semverLt", ["1.0.0-beta"]), { v: "1.0.0-alpha" }, true],
  ["numeric identifiers compare numerically", c("v", "semverGt", ["1.0.0-beta.2"]), { v: "1.0.0-beta.11" }, true],
  ["greater", c("v", "semverGt", ["2.0.0"]), { v: "10.0.0" }, true],
  ["not greater", c("v", "semverGt", ["2.0.0"]), { v: "2.0.0" }, false],
  ["an invalid version does not match", c("v", "semverGt", ["1.0.0"]), { v: "2.0" }, false],
  ["a leading v is not semver", c("v", "semverEq", ["1.0.0"]), { v: "v1.0.0" }, false],
  ["a number is the wrong type", c("v", "semverEq", ["1.0.0"]), { v: 1 }, false]
])

table("exists", [
  ["present string", c("plan", "exists", []), { plan: "pro" }, true],
  ["present false", c("beta", "exists", []), { beta: false }, true],
  ["present empty array", c("tags", "exists", []), { tags: [] }, true],
  ["present zero", c("n", "exists", []), { n: 0 }, true],
  ["absent", c("plan", "exists", []), {}, false],
  ["null is absent", c("plan", "exists", []), { plan: null }, false]
])

describe("segments", () => {
  const segments = [
    { key: "staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }] },
    { key: "eu", conditions: [{ attribute: "country", operator: "in", values: ["DE", "FR"] }] },
    { key: "everyone", conditions: [] }
  ] as const
  const run = (operator: Operator, values: ReadonlyArray<string>, attributes: Record<string, unknown>, negate = false) => {
    const compiled = Evaluate.compile(
      snapshot([flagWithCondition({ operator, values, negate })], segments as never)
    )
    return Evaluate.evaluate(compiled, "flag", { key: "k", attributes }).reason.kind
  }
  it.each([
    ["inSegment: in the segment", "inSegment", ["staff"], { email: "a@example.com" }, false, "RULE_MATCH"],
    ["inSegment: not in it", "inSegment", ["staff"], { email: "a@other.com" }, false, "FALLTHROUGH"],
    ["inSegment: in any of them", "inSegment", ["staff", "eu"], { country: "FR" }, false, "RULE_MATCH"],
    ["notInSegment: in none", "notInSegment", ["staff", "eu"], { country: "US" }, false, "RULE_MATCH"],
    ["notInSegment: in one", "notInSegment", ["staff", "eu"], { country: "DE" }, false, "FALLTHROUGH"],
    ["a segment with no conditions contains everyone", "inSegment", ["everyone"], {}, false, "RULE_MATCH"],
    ["negated inSegment", "inSegment", ["staff"], { email: "a@example.com" }, true, "FALLTHROUGH"],
    ["a missing segment is an ERROR", "inSegment", ["ghost"], {}, false, "ERROR"]
  ] as const)("%s", (_, operator, values, attributes, negate, kind) => {
    expect(run(operator, values, attributes, negate)).toBe(kind)
  })
})
