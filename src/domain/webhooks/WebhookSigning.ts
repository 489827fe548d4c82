import * as Base64 from "../Base64.js"
import { standardKeyBase64 } from "./WebhookSecret.js"

/**
 * Standard Webhooks signing (standardwebhooks.com):
 * `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>`, where the key is the secret's bytes:
 * the base64-decoded bytes of a `whsec_...` secret, the UTF-8 bytes of a plain one
 * (WebhookSecret.ts). A receiver using an official Standard Webhooks library passes a `whsec_`
 * secret as it is, and a plain one as `"whsec_" + base64(utf8(secret))`, which decodes to the
 * same bytes (see docs/guide/webhooks.md).
 */

/** The HMAC the signatures need (the Crypto port's `hmacSha256Base64`); src/ imports no crypto module. */
export interface Hmac {
  readonly hmacSha256Base64: (key: Uint8Array, message: string) => string
}

/** The HMAC key of a secret in either form. */
export const keyBytes = (secret: string): Uint8Array => {
  const standard = standardKeyBase64(secret)
  return standard === undefined ? new TextEncoder().encode(secret) : Base64.toBytes(standard)
}

/** The secret in the `whsec_<base64>` form that Standard Webhooks libraries expect (a `whsec_` secret already is). */
export const toStandardSecret = (secret: string): string =>
  standardKeyBase64(secret) === undefined ? `whsec_${Base64.fromUtf8(secret)}` : secret

export interface Signer {
  /** One `v1,...` signature of a message. `timestamp` is in unix seconds. */
  readonly sign: (secret: string, id: string, timestamp: number, body: string) => string
  /**
   * The `webhook-signature` header value: one signature per secret, space-separated (the
   * Standard Webhooks way to rotate: during the overlap the receiver accepts either key).
   * Returns `undefined` when there is no secret, in which case the header is omitted.
   */
  readonly signatureHeader: (secrets: ReadonlyArray<string>, id: string, timestamp: number, body: string) => string | undefined
  /**
   * All headers of one delivery attempt. `webhook-id` is the event id, stable across retries, so a
   * receiver can drop duplicates; `webhook-timestamp` is the time of this attempt.
   */
  readonly deliveryHeaders: (options: {
    readonly id: string
    readonly timestamp: number
    readonly body: string
    readonly secrets: ReadonlyArray<string>
  }) => Record<string, string>
}

/** The signing functions over an HMAC implementation. */
export const signer = (hmac: Hmac): Signer => {
  const sign: Signer["sign"] = (secret, id, timestamp, body) => `v1,${hmac.hmacSha256Base64(keyBytes(secret), `${id}.${timestamp}.${body}`)}`
  const signatureHeader: Signer["signatureHeader"] = (secrets, id, timestamp, body) =>
    secrets.length === 0 ? undefined : secrets.map((secret) => sign(secret, id, timestamp, body)).join(" ")
  const deliveryHeaders: Signer["deliveryHeaders"] = (options) => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "webhook-id": options.id,
      "webhook-timestamp": String(options.timestamp)
    }
    const signature = signatureHeader(options.secrets, options.id, options.timestamp, options.body)
    if (signature !== undefined) headers["webhook-signature"] = signature
    return headers
  }
  return { sign, signatureHeader, deliveryHeaders }
}

/** Unix seconds of an epoch-milliseconds instant (Effect's Clock gives milliseconds). */
export const unixSeconds = (epochMillis: number): number => Math.floor(epochMillis / 1000)
