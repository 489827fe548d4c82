/**
 * `parseTraceParent` reads a W3C `traceparent` as the specification's grammar says (here written
 * as the regular expression it replaced): the same answer for valid headers, near misses (a wrong
 * character, length or separator, uppercase, version ff, all-zero ids, later versions' extra
 * fields and version 00's, surrounding whitespace) and arbitrary strings.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { parseTraceParent } from "../../../src/domain/tracing/TraceParent.js"

const GRAMMAR = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/
const oracle = (header: string) => {
  const match = GRAMMAR.exec(header.trim())
  if (match === null || match[1] === "ff" || (match[1] === "00" && match[5] === "-") || /^0+$/.test(match[2]!) || /^0+$/.test(match[3]!)) return undefined
  return { traceId: match[2]!, spanId: match[3]!, sampled: (parseInt(match[4]!, 16) & 1) === 1 }
}

const hexChars = (n: number) => fc.array(fc.constantFrom(..."0123456789abcdef"), { minLength: n, maxLength: n }).map((cs) => cs.join(""))
const valid = fc.tuple(
  fc.oneof(hexChars(2), fc.constant("00"), fc.constant("ff")),
  fc.oneof(hexChars(32), fc.constant("0".repeat(32))),
  fc.oneof(hexChars(16), fc.constant("0".repeat(16))),
  hexChars(2),
  fc.constantFrom("", "-", "-extra", "x", " ", "\t")
).map(([v, t, s, f, rest]) => `${v}-${t}-${s}-${f}${rest}`)
/** A valid header with one character replaced, one removed or one inserted. */
const nearMiss = fc.tuple(valid, fc.nat(60), fc.constantFrom("A", "g", "-", "0", " ", "F", "")).map(([h, at, c]) => {
  const i = at % (h.length + 1)
  return c === "" ? h.slice(0, i) + h.slice(i + 1) : h.slice(0, i) + c + h.slice(i)
})

describe("parseTraceParent", () => {
  it("answers as the traceparent grammar does", () => {
    fc.assert(
      fc.property(fc.oneof(valid, nearMiss, fc.string(), valid.map((h) => `  ${h.toUpperCase()} `)), (header) => {
        expect(parseTraceParent(header)).toEqual(oracle(header))
      }),
      { numRuns: 5000 }
    )
  })

  it("reads the sampled flag and refuses the invalid forms", () => {
    expect(parseTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", sampled: true })
    expect(parseTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0a")?.sampled).toBe(false)
    expect(parseTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0b")?.sampled).toBe(true)
    expect(parseTraceParent("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBeUndefined()
    expect(parseTraceParent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined()
    expect(parseTraceParent("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")).toBeUndefined()
    expect(parseTraceParent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later")?.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736")
    expect(parseTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later")).toBeUndefined()
  })
})
