/** The reconnection schedule: exponential, capped, jittered within [half, whole] of the nominal delay. */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { backoffDelay, DEFAULT_BACKOFF } from "../../adapters/client/Backoff.js"

describe("backoffDelay", () => {
  it("doubles from the initial delay up to the cap (no jitter at random = 1, half at random = 0)", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => backoffDelay(DEFAULT_BACKOFF, attempt, 0.999999))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000
    ])
    expect([0, 1, 2, 5, 50].map((attempt) => backoffDelay(DEFAULT_BACKOFF, attempt, 0))).toEqual([500, 1_000, 2_000, 15_000, 15_000])
  })

  it.prop(
    "stays within [nominal/2, nominal] and grows with the attempt",
    [fc.integer({ min: 0, max: 1_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })],
    ([attempt, random]) => {
      const nominal = Math.min(DEFAULT_BACKOFF.maxMs, DEFAULT_BACKOFF.initialMs * 2 ** Math.min(attempt, 30))
      const delay = backoffDelay(DEFAULT_BACKOFF, attempt, random)
      expect(delay).toBeGreaterThanOrEqual(nominal / 2)
      expect(delay).toBeLessThanOrEqual(nominal)
      expect(backoffDelay(DEFAULT_BACKOFF, attempt + 1, random)).toBeGreaterThanOrEqual(delay)
    }
  )
})
