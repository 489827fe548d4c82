import { createHmac } from "node:crypto"

/**
 * Standard Webhooks signing (standardwebhooks.com), as the contract fixes it:
 * `v1,<base64 HMAC-SHA256(secret bytes as UTF-8, "{id}.{timestamp}.{body}")>`.
 *
 * The secret is used as its UTF-8 bytes, not base64-decoded as `whsec_...` secrets are,
 * because our API accepts any 8..128 character string. A receiver using an official
 * Standard Webhooks library passes `"whsec_" + base64(utf8(secret))`, which decodes to the
 * same bytes (see docs/webhooks.md).
 */

/** One `v1,...` signature of a message. `timestamp` is in unix seconds. */
export const sign = (secret: string, id: string, timestamp: number, body: string): string => {
  const mac = createHmac("sha256", Buffer.from(secret, "utf8"))
  mac.update(`${id}.${timestamp}.${body}`, "utf8")
  return `v1,${mac.digest("base64")}`
}

/**
 * The `webhook-signature` header value: one signature per secret, space-separated (the
 * Standard Webhooks way to rotate: during the overlap the receiver accepts either key).
 * Returns `undefined` when there is no secret, in which case the header is omitted.
 */
export const signatureHeader = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestamp: number,
  body: string
): string | undefined =>
  secrets.length === 0 ? undefined : secrets.map((secret) => sign(secret, id, timestamp, body)).join(" ")

/** The secret in the `whsec_<base64>` form that Standard Webhooks libraries expect. */
export const toStandardSecret = (secret: string): string => `whsec_${Buffer.from(secret, "utf8").toString("base64")}`

/**
 * All headers of one delivery attempt. `webhook-id` is the event id, stable across retries, so a
 * receiver can drop duplicates; `webhook-timestamp` is the time of this attempt.
 */
export const deliveryHeaders = (options: {
  readonly id: string
  readonly timestamp: number
  readonly body: string
  readonly secrets: ReadonlyArray<string>
}): Record<string, string> => {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "webhook-id": options.id,
    "webhook-timestamp": String(options.timestamp)
  }
  const signature = signatureHeader(options.secrets, options.id, options.timestamp, options.body)
  if (signature !== undefined) headers["webhook-signature"] = signature
  return headers
}

/** Unix seconds of an epoch-milliseconds instant (Effect's Clock gives milliseconds). */
export const unixSeconds = (epochMillis: number): number => Math.floor(epochMillis / 1000)
