/**
 * The device cookie on the wire (src/domain/people/DeviceCookie.ts: what it is and why):
 * `flagport_device=<value>; Max-Age=<90 days>; Path=/; HttpOnly; SameSite=Strict`, with `Secure`
 * and the `__Host-` name prefix when the session cookie has them (the same settings: an https
 * public URL or a trusted proxy's `X-Forwarded-Proto`). Set by a password sign-in and a setup;
 * signing out leaves it, as it is no credential, only the browser's place in the device lane.
 */
import * as Duration from "effect/Duration"
import { DEVICE_COOKIE_LIFETIME_MS } from "../../../src/domain/people/DeviceCookie.js"
import { type CookieSettings, singleCookieValue } from "./SessionCookie.js"

export const DEVICE_COOKIE_NAME = "flagport_device"
export const SECURE_DEVICE_COOKIE_NAME = "__Host-flagport_device"

/** The cookie's name under the request's settings. */
export const deviceCookieName = (settings: CookieSettings): string => (settings.secure ? SECURE_DEVICE_COOKIE_NAME : DEVICE_COOKIE_NAME)

/** The cookie's attributes (for `HttpServerResponse.unsafeSetCookie`). */
export const deviceCookieOptions = (settings: CookieSettings) => ({
  maxAge: Duration.millis(DEVICE_COOKIE_LIFETIME_MS),
  path: "/",
  httpOnly: true,
  sameSite: "strict" as const,
  secure: settings.secure
})

/** The device cookie's value in a `Cookie` header, if it is there once. */
export const deviceCookieOf = (settings: CookieSettings, cookieHeader: string | undefined): string | undefined =>
  singleCookieValue(deviceCookieName(settings), cookieHeader)

/**
 * The device cookie's value under either name, for a check made before the request's settings
 * are worked out (the sign-in front); the use case checks it again under the right one.
 */
export const anyDeviceCookieOf = (cookieHeader: string | undefined): string | undefined =>
  singleCookieValue(SECURE_DEVICE_COOKIE_NAME, cookieHeader) ?? singleCookieValue(DEVICE_COOKIE_NAME, cookieHeader)
