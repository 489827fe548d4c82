/**
 * The polling loop's waits, with a driven clock: the interval while the server answers, the
 * (shorter) backoff schedule while it cannot be reached, and the (longer) refusal schedule while it
 * refuses the key, project or environment; any answer starts both over.
 */
import { describe, expect, it, vi } from "@effect/vitest"
import { backoffDelay, type BackoffPolicy } from "../../adapters/client/Backoff.js"
import { type RefreshResult, startPolling } from "../../adapters/client/Polling.js"
import { DrivenTimers } from "./DrivenTimers.js"

const backoff: BackoffPolicy = { initialMs: 1_000, maxMs: 8_000, resetAfterMs: 60_000 }
const refusalBackoff: BackoffPolicy = { initialMs: 60_000, maxMs: 240_000, resetAfterMs: 60_000 }
const INTERVAL_MS = 30_000

/** Runs the loop with refreshes answering `results` in turn; the waits it chose, in order. */
const waitsFor = async (first: RefreshResult, results: ReadonlyArray<RefreshResult>): Promise<ReadonlyArray<number>> => {
  const timers = new DrivenTimers(0.5)
  const stop = new AbortController()
  const left = [...results]
  let refreshes = 0
  const polling = startPolling(
    { refresh: async () => (refreshes++, left.shift() ?? "answered"), paused: () => false },
    timers,
    INTERVAL_MS,
    backoff,
    refusalBackoff,
    Promise.resolve(first),
    stop.signal
  )
  const waits: Array<number> = []
  for (let i = 0; i <= results.length; i++) {
    await vi.waitFor(() => expect(timers.pendingDelays).toHaveLength(1))
    const wait = timers.pendingDelays[0]!
    waits.push(wait)
    timers.advance(wait)
    await vi.waitFor(() => expect(refreshes).toBe(i + 1))
  }
  stop.abort()
  await polling.done
  return waits
}

describe("startPolling", () => {
  it("waits the interval while the server answers, and retries sooner, on the backoff schedule, while it cannot be reached", async () => {
    expect(await waitsFor("answered", ["failed", "failed", "answered"])).toEqual([INTERVAL_MS, backoffDelay(backoff, 0, 0.5), backoffDelay(backoff, 1, 0.5), INTERVAL_MS])
  })

  it("after a refusal waits the refusal schedule (minutes, never less than the interval), and an answer starts it over", async () => {
    const waits = await waitsFor("refused", ["refused", "refused", "answered", "refused"])
    expect(waits).toEqual([45_000, 90_000, 180_000, INTERVAL_MS, 45_000])
    expect(waits.slice(0, 3)).toEqual([0, 1, 2].map((attempt) => backoffDelay(refusalBackoff, attempt, 0.5)))
  })
})
