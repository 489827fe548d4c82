import type { Problem } from "../Errors.js"

/**
 * The two forms of a webhook signing secret.
 *
 * - A Standard Webhooks secret: `whsec_` followed by the standard base64 (padded) of 24 to 64
 *   random bytes, as the spec defines it and its libraries generate and expect. Deliveries are
 *   signed with the DECODED bytes, so a receiver passes the very same string to its library.
 * - Any other string of 8 to 128 characters: a plain secret, signed with its UTF-8 bytes (a
 *   library is given `"whsec_" + base64(utf8(secret))`).
 *
 * Every secret that starts with `whsec_` is of the first form, so it is validated as one.
 */

export const STANDARD_PREFIX = "whsec_"
export const STANDARD_MIN_BYTES = 24
export const STANDARD_MAX_BYTES = 64
export const PLAIN_MIN = 8
export const PLAIN_MAX = 128

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** True for a secret in the Standard Webhooks form (`whsec_...`). */
export const isStandardSecret = (secret: string): boolean => secret.startsWith(STANDARD_PREFIX)

const standardSecretBase64 = (secret: string): string => secret.slice(STANDARD_PREFIX.length)

/** How many bytes well-formed, padded base64 text decodes to. */
const decodedLength = (base64: string): number => (base64.length / 4) * 3 - (base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0)

/** The problems of a secret in either form; empty when acceptable. */
export const validateSecret = (secret: string, path = "secret"): ReadonlyArray<Problem> => {
  if (!isStandardSecret(secret)) {
    return secret.length < PLAIN_MIN || secret.length > PLAIN_MAX
      ? [{ path, message: `must be ${PLAIN_MIN} to ${PLAIN_MAX} characters` }]
      : []
  }
  const base64 = standardSecretBase64(secret)
  if (!BASE64.test(base64)) {
    return [{ path, message: `must be ${STANDARD_PREFIX} followed by standard base64 (A-Z, a-z, 0-9, +, /, padded with =)` }]
  }
  const bytes = decodedLength(base64)
  return bytes < STANDARD_MIN_BYTES || bytes > STANDARD_MAX_BYTES
    ? [
        {
          path,
          message: `must be ${STANDARD_PREFIX} followed by the base64 of ${STANDARD_MIN_BYTES} to ${STANDARD_MAX_BYTES} bytes (this one holds ${bytes})`
        }
      ]
    : []
}

/**
 * The base64 of the key bytes of a well-formed `whsec_` secret, or undefined for any other secret
 * (signed with its UTF-8 bytes). Write validation lets only well-formed `whsec_` secrets in; one
 * stored by an older version that is not well-formed keeps being signed as text, as it was then.
 */
export const standardKeyBase64 = (secret: string): string | undefined =>
  isStandardSecret(secret) && validateSecret(secret).length === 0 ? standardSecretBase64(secret) : undefined
