/**
 * When to try a webhook delivery again (contract: Webhooks, the Standard Webhooks schedule).
 *
 * Attempt 1 is immediate; after a failed attempt n (1-based) the next one waits
 * `RETRY_DELAYS_MS[n - 1]` plus up to `JITTER_RATIO` of it, so a crowd of failed deliveries does
 * not come back in one burst. Jitter only ever adds: a retry never comes earlier than the schedule.
 * After the last delay is used up (8 attempts in all), the delivery is failed.
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** Delays after attempts 1..7: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_DELAYS_MS: ReadonlyArray<number> = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR
]

/** At most 10% extra on each delay. */
export const JITTER_RATIO = 0.1

/** Total attempts before a delivery is failed: the first one plus one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1

/**
 * Delay in milliseconds before the attempt after `attemptsMade` failed ones, or `undefined` when the
 * delivery has used all its attempts and must be marked failed.
 *
 * @param attemptsMade attempts already made, including the one that just failed (>= 1)
 * @param random a number in [0, 1) that picks the jitter (Effect's `Random.next` in the dispatcher)
 */
export const retryDelay = (attemptsMade: number, random: number): number | undefined => {
  const base = RETRY_DELAYS_MS[attemptsMade - 1]
  if (base === undefined || attemptsMade < 1) return undefined
  const unit = Math.min(Math.max(random, 0), 1)
  return Math.round(base * (1 + JITTER_RATIO * unit))
}

/** A 2xx answer is success; anything else (other status, timeout, network error) is a failure. */
export const isSuccessStatus = (statusCode: number | null): boolean =>
  statusCode !== null && statusCode >= 200 && statusCode < 300
