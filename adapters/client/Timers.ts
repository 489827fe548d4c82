/**
 * Time as the client sees it: injected, so tests drive reconnects and polls with a fake clock
 * instead of waiting.
 */
export interface Timers {
  readonly now: () => number
  /** A number in [0, 1) (jitter). */
  readonly random: () => number
  /** Calls `run` after `ms`; the returned function cancels it. */
  readonly schedule: (ms: number, run: () => void) => () => void
}

export const realTimers: Timers = {
  now: () => Date.now(),
  random: () => Math.random(),
  schedule: (ms, run) => {
    const timer = setTimeout(run, ms)
    return () => clearTimeout(timer)
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts (never rejects). */
export const sleep = (timers: Timers, ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = () => {
      cancel()
      signal.removeEventListener("abort", done)
      resolve()
    }
    const cancel = timers.schedule(ms, done)
    signal.addEventListener("abort", done, { once: true })
  })
