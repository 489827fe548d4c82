/**
 * The polling change source: refetch `/v1/config` (with `If-None-Match`) every interval, sooner,
 * on the backoff schedule, while the server cannot be reached, and later, on the refusal
 * schedule (Refusal.ts), while it refuses the key, project or environment. It idles while a
 * stream is up (`paused`), and is the whole story when streaming is off or unavailable.
 */
import { backoffDelay, type BackoffPolicy } from "./Backoff.js"
import { sleep, type Timers } from "./Timers.js"

/** How a refetch went: a configuration (new or unchanged), a failure to retry soon, or a refusal. */
export type RefreshResult = "answered" | "failed" | "refused"

export interface PollingHost {
  readonly refresh: () => Promise<RefreshResult>
  /** True while another source (the stream) keeps the configuration fresh. */
  readonly paused: () => boolean
}

export interface Polling {
  /** Settles once `signal` aborted and the loop ended. */
  readonly done: Promise<void>
  /**
   * Ends the current wait now. A paused loop sleeps a whole interval; when a refetch fails while
   * the stream stays up, nothing else would retry before that interval is over.
   */
  readonly wake: () => void
}

export const startPolling = (
  host: PollingHost,
  timers: Timers,
  intervalMs: number,
  backoff: BackoffPolicy,
  refusalBackoff: BackoffPolicy,
  first: Promise<RefreshResult>,
  signal: AbortSignal
): Polling => {
  let wakeWait: (() => void) | undefined
  const wait = (ms: number): Promise<void> => {
    const waiting = new AbortController()
    const end = () => waiting.abort()
    signal.addEventListener("abort", end, { once: true })
    wakeWait = end
    return sleep(timers, ms, waiting.signal).finally(() => {
      signal.removeEventListener("abort", end)
      wakeWait = undefined
    })
  }
  let failures = 0
  let refusals = 0
  const count = (result: RefreshResult): void => {
    failures = result === "failed" ? failures + 1 : 0
    refusals = result === "refused" ? refusals + 1 : 0
  }
  /** Never sooner than the interval after a refusal, never later than it after a failure. */
  const delay = (): number => {
    if (refusals > 0) return Math.max(intervalMs, backoffDelay(refusalBackoff, refusals - 1, timers.random()))
    if (failures > 0) return Math.min(intervalMs, backoffDelay(backoff, failures - 1, timers.random()))
    return intervalMs
  }
  const run = async (): Promise<void> => {
    count(await first)
    while (!signal.aborted) {
      await wait(delay())
      if (signal.aborted) return
      if (host.paused()) {
        count("answered")
        continue
      }
      count(await host.refresh())
    }
  }
  return { done: run(), wake: () => wakeWait?.() }
}
