/**
 * Device cookies (OWASP's "Slow down online guessing attacks with device cookies"; docs/guide/people.md,
 * "Sign-in under load"): a browser that signed in with a password gets a signed cookie naming the
 * email it signed in as. A later sign-in for that email presenting it is served by a lane of the
 * password hashing that an anonymous flood cannot fill (domain/people/SignInLoad.ts), so a person
 * still gets in while made-up sign-ins from many addresses keep the ordinary queue full.
 *
 * The cookie is no credential: it only chooses the lane; the password is verified as always and
 * every answer is the same as without it. It is issued only after a right password, so it tells
 * nobody whether an email exists.
 *
 * Value: `<email, base64url>.<issued at, epoch ms in base 36>.<nonce>.<HMAC-SHA256, base64url>`,
 * signed over `deviceCookieMessage`. Pure: the HMAC is the caller's (the Crypto port).
 */
import { urlFromBytes } from "../Base64.js"

/** How long a device cookie gives a browser its lane: a person signing in now and then keeps it fresh. */
export const DEVICE_COOKIE_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000

/** A cookie issued this far in the future (another process's clock) is still believed. */
const CLOCK_SKEW_MS = 5 * 60 * 1000

/** A browser's cookie value longer than this is no device cookie of ours (an email is at most 254 characters). */
const MAX_LENGTH = 600

const PART = /^[A-Za-z0-9_-]+$/

export interface DeviceCookie {
  /** The normalized email the browser signed in as. */
  readonly email: string
  readonly issuedAt: number
  /** base64url random bytes: two cookies for one email differ. */
  readonly nonce: string
  /** base64url HMAC-SHA256 of `deviceCookieMessage`. */
  readonly mac: string
}

/** What the HMAC signs: a label (no other token's message can be one), the email, the time and the nonce. */
export const deviceCookieMessage = (cookie: Omit<DeviceCookie, "mac">): string =>
  `flagport device cookie v1\n${cookie.email}\n${cookie.issuedAt}\n${cookie.nonce}`

const utf8Url = (text: string): string => urlFromBytes(new TextEncoder().encode(text))

const fromUtf8Url = (part: string): string | undefined => {
  try {
    const standard = part.replace(/-/g, "+").replace(/_/g, "/")
    const bytes = Uint8Array.from(atob(standard + "=".repeat((4 - (standard.length % 4)) % 4)), (c) => c.charCodeAt(0))
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** The cookie's value. */
export const formatDeviceCookie = (cookie: DeviceCookie): string =>
  `${utf8Url(cookie.email)}.${cookie.issuedAt.toString(36)}.${cookie.nonce}.${cookie.mac}`

/** The parts of a cookie value, or undefined for anything that is not one (its MAC is not checked here). */
export const parseDeviceCookie = (value: string): DeviceCookie | undefined => {
  if (value.length > MAX_LENGTH) return undefined
  const parts = value.split(".")
  if (parts.length !== 4 || !parts.every((part) => PART.test(part))) return undefined
  const [emailPart, issuedPart, nonce, mac] = parts as [string, string, string, string]
  const email = fromUtf8Url(emailPart)
  const issuedAt = parseInt(issuedPart, 36)
  if (email === undefined || email === "" || !/^[0-9a-z]+$/.test(issuedPart) || !Number.isSafeInteger(issuedAt)) return undefined
  return { email, issuedAt, nonce, mac }
}

/** Whether a cookie issued at `issuedAt` still gives its lane at `nowMillis`. */
export const deviceCookieCurrent = (issuedAt: number, nowMillis: number): boolean =>
  issuedAt <= nowMillis + CLOCK_SKEW_MS && nowMillis - issuedAt < DEVICE_COOKIE_LIFETIME_MS
