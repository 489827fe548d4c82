import { describe, expect, it } from "vitest"
import { SESSION_LIFETIME_MS, sessionExpiresAt, sessionIsLive, sessionNeedsTouch } from "../../../src/domain/people/Session.js"

const HOUR = 60 * 60 * 1000
const START = Date.parse("2026-11-20T08:00:00.000Z")
const at = (millis: number) => new Date(millis).toISOString()
const session = (lastSeen: number) => ({ lastSeenAt: at(lastSeen), expiresAt: at(sessionExpiresAt(START)) })

describe("session expiry: 7 days in all, and the idle period since last seen", () => {
  it.each([
    { name: "just started", lastSeen: START, now: START, idleHours: 12, live: true },
    { name: "idle exactly the idle period", lastSeen: START, now: START + 12 * HOUR, idleHours: 12, live: true },
    { name: "idle a millisecond longer", lastSeen: START, now: START + 12 * HOUR + 1, idleHours: 12, live: false },
    { name: "a shorter idle period (FLAGPORT_SESSION_IDLE_HOURS=1)", lastSeen: START, now: START + 2 * HOUR, idleHours: 1, live: false },
    { name: "used all along, a millisecond before 7 days", lastSeen: START + SESSION_LIFETIME_MS - HOUR, now: START + SESSION_LIFETIME_MS - 1, idleHours: 12, live: true },
    { name: "used all along, at 7 days", lastSeen: START + SESSION_LIFETIME_MS - HOUR, now: START + SESSION_LIFETIME_MS, idleHours: 12, live: false },
    { name: "a long idle period does not outlive 7 days", lastSeen: START, now: START + SESSION_LIFETIME_MS + 1, idleHours: 24 * 30, live: false }
  ])("$name: live $live", ({ lastSeen, now, idleHours, live }) => {
    expect(sessionIsLive(session(lastSeen), now, idleHours * HOUR)).toBe(live)
  })

  it("the absolute end is 7 days after the start", () => {
    expect(at(sessionExpiresAt(START))).toBe("2026-11-27T08:00:00.000Z")
  })
})

describe("lastSeenAt is refreshed at most once a minute", () => {
  it.each([
    { after: 0, touch: false },
    { after: 59_999, touch: false },
    { after: 60_000, touch: true },
    { after: 5 * 60_000, touch: true }
  ])("$after ms after the last refresh: $touch", ({ after, touch }) => {
    expect(sessionNeedsTouch(session(START), START + after)).toBe(touch)
  })
})
