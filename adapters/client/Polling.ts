/**
 * The polling change source: refetch `/v1/config` (with `If-None-Match`) every interval, and
 * sooner, on the backoff schedule, while the server cannot be reached. It idles while a stream
 * is up (`paused`), and is the whole story when streaming is off or unavailable.
 */
import { backoffDelay, type BackoffPolicy } from "./Backoff.js"
import { sleep, type Timers } from "./Timers.js"

export interface PollingHost {
  /** Refetches; true when the server answered with a configuration (new or unchanged). */
  readonly refresh: () => Promise<boolean>
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
  first: Promise<boolean>,
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
  const run = async (): Promise<void> => {
    let failures = (await first) ? 0 : 1
    while (!signal.aborted) {
      await wait(failures === 0 ? intervalMs : Math.min(intervalMs, backoffDelay(backoff, failures - 1, timers.random())))
      if (signal.aborted) return
      if (host.paused()) {
        failures = 0
        continue
      }
      failures = (await host.refresh()) ? 0 : failures + 1
    }
  }
  return { done: run(), wake: () => wakeWait?.() }
}
