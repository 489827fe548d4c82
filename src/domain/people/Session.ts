/**
 * When a session is live (docs/guide/people.md, "Sessions"): at most 7 days in all, and at most the idle
 * period (FLAGPORT_SESSION_IDLE_HOURS, 12 h by default) since it was last seen. Pure rules over
 * milliseconds; the Sessions use case reads the clock and the stored session.
 */

/** A session's absolute lifetime, from sign-in: 7 days. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000

/** FLAGPORT_SESSION_IDLE_HOURS when unset. */
export const DEFAULT_SESSION_IDLE_HOURS = 12

/**
 * `lastSeenAt` is refreshed at most this often: a request a second must not become a write a
 * second, and a minute is far below any idle period.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000

/** The times of a stored session, as the SessionRepository keeps them (contract timestamps). */
export interface SessionTimes {
  readonly lastSeenAt: string
  /** The absolute end: sign-in + SESSION_LIFETIME_MS. */
  readonly expiresAt: string
}

/** The absolute end of a session started at `startedMillis`. */
export const sessionExpiresAt = (startedMillis: number): number => startedMillis + SESSION_LIFETIME_MS

/** Live at `nowMillis`: before its absolute end, and idle for no longer than `idleMillis`. */
export const sessionIsLive = (session: SessionTimes, nowMillis: number, idleMillis: number): boolean =>
  nowMillis < Date.parse(session.expiresAt) && nowMillis - Date.parse(session.lastSeenAt) <= idleMillis

/** Whether a use at `nowMillis` should refresh `lastSeenAt` (at most once a minute). */
export const sessionNeedsTouch = (session: SessionTimes, nowMillis: number): boolean =>
  nowMillis - Date.parse(session.lastSeenAt) >= SESSION_TOUCH_INTERVAL_MS
