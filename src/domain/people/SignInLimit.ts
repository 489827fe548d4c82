/**
 * The failed sign-in limit (docs/guide/people.md): after 10 failures for one email within 15 minutes,
 * sign-in with that email is refused (429) until the window has passed, even with the right
 * password. The failures are kept in the database so the limit holds across processes; this is
 * the rule over their times.
 */

export const SIGN_IN_FAILURE_LIMIT = 10
export const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60 * 1000

/** The start of the window that ends at `nowMillis`: failures at or before it no longer count. */
export const failureWindowStart = (nowMillis: number): number => nowMillis - SIGN_IN_FAILURE_WINDOW_MS

/**
 * Whole seconds (at least 1) until a sign-in with this email is accepted again, or `null` when it
 * is accepted now. `failures` are the times of its failures (any order; those outside the window
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
