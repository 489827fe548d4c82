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

export const runPolling = async (
  host: PollingHost,
  timers: Timers,
  intervalMs: number,
  backoff: BackoffPolicy,
  first: Promise<boolean>,
  signal: AbortSignal
): Promise<void> => {
  let failures = (await first) ? 0 : 1
  while (!signal.aborted) {
    const wait = failures === 0 ? intervalMs : Math.min(intervalMs, backoffDelay(backoff, failures - 1, timers.random()))
    await sleep(timers, wait, signal)
    if (signal.aborted) return
    if (host.paused()) {
      failures = 0
      continue
    }
    failures = (await host.refresh()) ? 0 : failures + 1
  }
}
