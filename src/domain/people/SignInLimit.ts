/**
 * The failed sign-in limits (docs/guide/people.md, "Passwords and the sign-in limit"), over failures
 * kept in the database so they hold across processes:
 *
 * - Per email and client address: after 10 failures within 15 minutes, sign-in with that email
 *   from that address is refused (429) until the window has passed, even with the right password.
 *   Counting by address too means nobody can lock a person out from an address of their own.
 * - Per email, from every address together: after 10 failures within 15 minutes, each attempt
 *   with that email waits SIGN_IN_SLOW_DELAY_MS before its password is checked. It slows guessing
 *   from many addresses and never refuses the right password.
 *
 * A global admin clears a person's failures (`POST /v1/users/{id}/unlock`).
 */

export const SIGN_IN_FAILURE_LIMIT = 10
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000

/** Failures of one email (every address) in the window from which its attempts are slowed. */
export const SIGN_IN_SLOW_AFTER = 10
export const SIGN_IN_SLOW_DELAY_MS = 2_000

/** How long an attempt waits before its password is checked, given its email's failures in the window. */
export const signInDelayMillis = (emailFailures: number): number => (emailFailures >= SIGN_IN_SLOW_AFTER ? SIGN_IN_SLOW_DELAY_MS : 0)

/** The start of the window that ends at `nowMillis`: failures at or before it no longer count. */
export const failureWindowStart = (nowMillis: number): number => nowMillis - SIGN_IN_FAILURE_WINDOW_MS

/**
 * Whole seconds (at least 1) until a sign-in with this email (from one address) is accepted again,
 * or `null` when it is accepted now. `failures` are the times of its failures (any order; those outside the window
 * are ignored). Allowed again once fewer than the limit remain in the window, that is when the
 * failure `limit` places from the newest leaves it.
 */
export const signInRetryAfterSeconds = (failures: ReadonlyArray<number>, nowMillis: number): number | null => {
  const start = failureWindowStart(nowMillis)
  const recent = failures.filter((at) => at > start && at <= nowMillis).sort((a, b) => a - b)
  if (recent.length < SIGN_IN_FAILURE_LIMIT) return null
  const leaving = recent[recent.length - SIGN_IN_FAILURE_LIMIT]!
  return Math.max(1, Math.ceil((leaving + SIGN_IN_FAILURE_WINDOW_MS - nowMillis) / 1000))
}
