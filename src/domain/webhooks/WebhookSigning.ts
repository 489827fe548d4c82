import * as Base64 from "../Base64.js"

/**
 * Standard Webhooks signing (standardwebhooks.com), as the contract fixes it:
 * `v1,<base64 HMAC-SHA256(secret bytes as UTF-8, "{id}.{timestamp}.{body}")>`.
 *
 * The secret is used as its UTF-8 bytes, not base64-decoded as `whsec_...` secrets are,
 * because our API accepts any 8..128 character string. A receiver using an official
 * Standard Webhooks library passes `"whsec_" + base64(utf8(secret))`, which decodes to the
 * same bytes (see docs/webhooks.md).
 */

/** The HMAC the signatures need (the Crypto port's `hmacSha256Base64`); src/ imports no crypto module. */
export interface Hmac {
  readonly hmacSha256Base64: (key: string, message: string) => string
}

/** The secret in the `whsec_<base64>` form that Standard Webhooks libraries expect. */
export const toStandardSecret = (secret: string): string => `whsec_${Base64.fromUtf8(secret)}`

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
  const sign: Signer["sign"] = (secret, id, timestamp, body) => `v1,${hmac.hmacSha256Base64(secret, `${id}.${timestamp}.${body}`)}`
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
