/**
 * Which events a webhook receives: exactly those that occur while it is enabled, from its creation
 * on. The fan-out runs a little after an event happens (up to a poll interval, longer while the
 * dispatcher is down), so it must judge each event by the time it OCCURRED, not by the webhook's
 * state when the fan-out runs: a webhook created or re-enabled in between must not receive the
 * older event, and one disabled in between still receives it (the delivery is held until the
 * webhook is enabled again, like any delivery queued before a disable).
 *
 * The window is the webhook's latest enabled period: `enabledAt` is when it began (its creation
 * for a webhook created enabled; null if it was never enabled), `disabledAt` when it ended (null
 * while enabled). Times are ISO 8601 UTC text with milliseconds, compared as text. An event in the
 * same millisecond as the enable counts as after it; one in the same millisecond as the disable
 * does not.
 */

export interface EnabledWindow {
  readonly enabledAt: string | null
  readonly disabledAt: string | null
}

/** The window of a new webhook, created enabled or not at `nowIso`. */
export const initialWindow = (enabled: boolean, nowIso: string): EnabledWindow =>
  enabled ? { enabledAt: nowIso, disabledAt: null } : { enabledAt: null, disabledAt: null }

/**
 * The window after the webhook's `enabled` flag is set to `enabled` at `nowIso`: enabling a
 * disabled webhook opens a new window, disabling an enabled one closes the current one, and
 * setting the flag it already has changes nothing.
 */
export const nextWindow = (current: EnabledWindow & { readonly enabled: boolean }, enabled: boolean, nowIso: string): EnabledWindow => {
  const window = { enabledAt: current.enabledAt, disabledAt: current.disabledAt }
  if (enabled === current.enabled) return window
  return enabled ? { enabledAt: nowIso, disabledAt: null } : { enabledAt: current.enabledAt, disabledAt: nowIso }
}

/** True when an event that occurred at `occurredAt` falls in the webhook's latest enabled window. */
export const receivesEventAt = (window: EnabledWindow, occurredAt: string): boolean =>
  window.enabledAt !== null && window.enabledAt <= occurredAt && (window.disabledAt === null || occurredAt < window.disabledAt)
