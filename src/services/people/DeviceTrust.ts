/**
 * Device cookies (domain/people/DeviceCookie.ts): issued to a browser after a right password,
 * checked when it signs in again, so its sign-in hashes in the device lane (SignInGuard). Signed
 * with a key derived from the database's stream secret (StreamSecret), so every process on one
 * database issues and checks alike, and a stream token can never pass for a device cookie (their
 * keys differ, as do their messages).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { constantTimeEquals, toUrlBase64 } from "../../domain/auth/StreamToken.js"
import { toBytes, urlFromBytes } from "../../domain/Base64.js"
import {
  type DeviceCookie,
  deviceCookieCurrent,
  deviceCookieMessage,
  formatDeviceCookie,
  parseDeviceCookie
} from "../../domain/people/DeviceCookie.js"
import { Crypto } from "../../ports/Crypto.js"
import type { StorageError } from "../../ports/StorageError.js"
import { StreamSecret } from "../../ports/StreamSecret.js"

/** What the device key is derived for: one secret, a key per use. */
const KEY_LABEL = "flagport device cookie key v1"

const NONCE_BYTES = 12

export interface DeviceTrustShape {
  /** Loads the signing key (one database read per process), so `holder` answers synchronously after it. */
  readonly ready: Effect.Effect<void, StorageError>
  /** A device cookie's value for the email (normalized), issued now. */
  readonly issue: (email: string) => Effect.Effect<string, StorageError>
  /**
   * The normalized email a device cookie's value vouches for: one of ours, its signature right, and
   * issued within its lifetime; undefined for anything else (no cookie, a forged or expired one).
   */
  readonly holder: (value: string | undefined) => Effect.Effect<string | undefined, StorageError>
}

export class DeviceTrust extends Context.Tag("@flagport/services/DeviceTrust")<DeviceTrust, DeviceTrustShape>() {}

export const make = Effect.gen(function* () {
  const crypto = yield* Crypto
  const secrets = yield* StreamSecret
  // Read once per process (it never changes); a failed read is retried by the next call.
  let known: Uint8Array | undefined
  const key = Effect.suspend(() =>
    known === undefined
      ? Effect.map(secrets.get, (secret) => (known = toBytes(crypto.hmacSha256Base64(secret, KEY_LABEL))))
      : Effect.succeed(known))
  const macOf = (cookie: Omit<DeviceCookie, "mac">, bytes: Uint8Array) => toUrlBase64(crypto.hmacSha256Base64(bytes, deviceCookieMessage(cookie)))

  const issue = Effect.fn("DeviceTrust.issue")(function* (email: string) {
    const unsigned = { email, issuedAt: yield* Clock.currentTimeMillis, nonce: urlFromBytes(crypto.randomBytes(NONCE_BYTES)) }
    return formatDeviceCookie({ ...unsigned, mac: macOf(unsigned, yield* key) })
  })

  // Not a span: it runs for every sign-in request of a flood that carries a cookie.
  const holder = (value: string | undefined): Effect.Effect<string | undefined, StorageError> =>
    Effect.gen(function* () {
      if (value === undefined) return undefined
      const cookie = parseDeviceCookie(value)
      if (cookie === undefined) return undefined
      if (!constantTimeEquals(macOf(cookie, yield* key), cookie.mac)) return undefined
      return deviceCookieCurrent(cookie.issuedAt, yield* Clock.currentTimeMillis) ? cookie.email : undefined
    })

  return DeviceTrust.of({ ready: Effect.asVoid(key), issue, holder })
})

export const layer = Layer.effect(DeviceTrust, make)
