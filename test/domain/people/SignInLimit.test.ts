import { describe, expect, it } from "vitest"
import { SIGN_IN_FAILURE_WINDOW_MS, signInRetryAfterSeconds } from "../../../src/domain/people/SignInLimit.js"

const NOW = Date.parse("2026-11-20T08:00:00.000Z")
const MINUTE = 60_000
/** `n` failures, one a second, the newest `newestAgo` ms before NOW. */
const failures = (n: number, newestAgo = 0) => Array.from({ length: n }, (_, i) => NOW - newestAgo - (n - 1 - i) * 1000)

describe("the failed sign-in limit: 10 failures per email within 15 minutes", () => {
  it.each([
    { name: "no failure", times: [], retry: null },
    { name: "9 failures", times: failures(9), retry: null },
    // The oldest of the ten was 9 s ago: it leaves the window in 15 min - 9 s.
    { name: "10 failures just now", times: failures(10), retry: 15 * 60 - 9 },
    { name: "10 failures, the newest 14 min ago", times: failures(10, 14 * MINUTE), retry: 60 - 9 },
    { name: "10 failures, all older than the window", times: failures(10, SIGN_IN_FAILURE_WINDOW_MS + 10_000), retry: null },
    { name: "a failure exactly at the window's start no longer counts", times: [NOW - SIGN_IN_FAILURE_WINDOW_MS, ...failures(9)], retry: null },
    // With 12 failures, allowed again when only 9 remain: when the third oldest leaves.
    { name: "12 failures", times: failures(12), retry: 15 * 60 - 9 },
    { name: "order does not matter", times: failures(10).reverse(), retry: 15 * 60 - 9 },
    { name: "less than a second to go still says 1", times: [NOW - SIGN_IN_FAILURE_WINDOW_MS + 200, ...failures(9)], retry: 1 }
  ])("$name: retry after $retry s", ({ times, retry }) => {
    expect(signInRetryAfterSeconds(times, NOW)).toBe(retry)
  })
})
