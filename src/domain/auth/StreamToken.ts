/**
 * Stream tokens: how a client that cannot send an Authorization header (a browser's
 * `EventSource`, an OFREP web provider that only has a URL) opens `GET /v1/stream`.
 *
 * A token is `v1.<claims>.<signature>`: the claims as base64url JSON (project, environment, the
 * id of the key it was issued for, expiry in unix seconds) and their HMAC-SHA256 under the
 * database's stream secret, base64url. Clients treat it as opaque. It grants reading one
 * environment's change notifications and nothing else; it is no API key (an API key never
 * appears in a URL), and it stays bound to its key: the stream route checks the key is still
 * live, so revoking the key invalidates its tokens.
 *
 * This file is the format only (pure); signing and verification with the secret live in
 * src/services/auth/StreamTokens.ts.
 */
import { Unauthenticated } from "../Errors.js"
import * as Base64 from "../Base64.js"

/** What a token grants, and until when. */
export interface StreamTokenClaims {
  readonly projectId: string
  readonly environment: string
  /** The API key the token was issued for; the token dies with it. */
  readonly keyId: string
  /** Expiry, unix seconds. */
  readonly expiresAt: number
}

/** The longest lifetime a token may be issued for: 24 h. */
export const MAX_TTL_SECONDS = 24 * 60 * 60
/** The lifetime when the issuer asks for none: 1 h (an OFREP provider gets a fresh one with each bulk evaluation). */
export const DEFAULT_TTL_SECONDS = 60 * 60
/** Longer cannot be a token (ids and keys are bounded); refused before any work. */
export const MAX_TOKEN_LENGTH = 1_024

const VERSION = "v1"
const BASE64URL = /^[A-Za-z0-9_-]+$/

/** The signed part of a token (`v1.<claims>`) for these claims. */
export const signedPart = (claims: StreamTokenClaims): string =>
  `${VERSION}.${Base64.urlFromBytes(new TextEncoder().encode(JSON.stringify({
    p: claims.projectId,
    e: claims.environment,
    k: claims.keyId,
    x: claims.expiresAt
  })))}`

/** base64url of standard base64 (the Crypto port's HMAC form). */
export const toUrlBase64 = (standard: string): string => standard.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** A token split into what was signed, the signature and the claims; undefined when it is not one. */
export const parse = (
  token: string
): { readonly signed: string; readonly signature: string; readonly claims: StreamTokenClaims } | undefined => {
  if (token.length > MAX_TOKEN_LENGTH) return undefined
  const parts = token.split(".")
  if (parts.length !== 3 || parts[0] !== VERSION) return undefined
  const [, body, signature] = parts as [string, string, string]
  if (!BASE64URL.test(body) || !BASE64URL.test(signature)) return undefined
  let decoded: unknown
  try {
    const standard = body.replace(/-/g, "+").replace(/_/g, "/")
    decoded = JSON.parse(new TextDecoder().decode(Base64.toBytes(standard + "=".repeat((4 - (standard.length % 4)) % 4))))
  } catch {
    return undefined
  }
  if (typeof decoded !== "object" || decoded === null) return undefined
  const { e, k, p, x } = decoded as Record<string, unknown>
  if (typeof p !== "string" || typeof e !== "string" || typeof k !== "string" || typeof x !== "number" || !Number.isInteger(x)) {
    return undefined
  }
  return { signed: `${VERSION}.${body}`, signature, claims: { projectId: p, environment: e, keyId: k, expiresAt: x } }
}

/** Compares two strings in time independent of where they differ (a signature check must not leak how much matched). */
export const constantTimeEquals = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

/** The 401 of a stream token that is malformed, not ours, or expired (a client then asks for a new one). */
export const INVALID_STREAM_TOKEN = "Invalid or expired stream token."

export const invalidStreamToken = () => new Unauthenticated({ message: INVALID_STREAM_TOKEN })
