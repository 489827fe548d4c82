/**
 * How long to wait before reconnecting: exponential, capped, with "equal jitter" (half the delay
 * fixed, half random), so a fleet of clients that lost the same server does not come back in
 * lockstep, and no client retries sooner than half the nominal delay.
 *
 *   attempt 0: 0.5-1 s, 1: 1-2 s, 2: 2-4 s, ... up to 15-30 s  (with the defaults)
 */
export interface BackoffPolicy {
  /** The nominal delay of the first retry. */
  readonly initialMs: number
  /** The cap of the nominal delay. */
  readonly maxMs: number
  /** A connection that stayed up this long resets the attempt count. */
  readonly resetAfterMs: number
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 }

/** The delay before retry number `attempt` (0-based); `random` is in [0, 1). */
export const backoffDelay = (policy: BackoffPolicy, attempt: number, random: number): number => {
  const nominal = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 30))
  return Math.round(nominal / 2 + (nominal / 2) * random)
}
