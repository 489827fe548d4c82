/**
 * The sign-in's `state`, `nonce`, PKCE verifier and return path, kept between
 * `GET /auth/oidc/login` and the callback in a short-lived cookie of the browser that started it,
 * sealed (AES-256-GCM: nobody can read or change it) rather than in this process's memory, so
 * the callback may reach any process of a deployment.
 *
 * The sealing key is derived (HKDF) from FLAGPORT_OIDC_CLIENT_SECRET, the one secret every
 * process of the deployment already shares; changing the secret only fails sign-ins in flight.
 * The cookie is what binds the provider's answer to the browser that asked (with `state`): an
 * answer arriving in another browser, or with another `state`, is refused.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"
import type { Transaction } from "../../oidc/OidcClient.js"

/** Ten minutes to sign in at the provider; an older transaction is refused. */
export const TRANSACTION_TTL_SECONDS = 600

/** `__Host-` (Secure, Path=/, no Domain: only this origin can set or read it) when the public URL is https. */
export const transactionCookieName = (secure: boolean): string => (secure ? "__Host-flagport_oidc" : "flagport_oidc")

export const sealingKey = (clientSecret: string): Buffer =>
  Buffer.from(hkdfSync("sha256", clientSecret, "flagport", "oidc transaction cookie", 32))

interface Sealed {
  readonly s: string
  readonly n: string
  readonly v: string
  readonly r: string
  /** Expiry, epoch milliseconds. */
  readonly e: number
}

/** The transaction sealed into a cookie value (base64url of IV, ciphertext and tag). */
export const seal = (key: Buffer, transaction: Transaction, nowMs: number): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  const body: Sealed = { s: transaction.state, n: transaction.nonce, v: transaction.codeVerifier, r: transaction.returnTo, e: nowMs + TRANSACTION_TTL_SECONDS * 1000 }
  const encrypted = Buffer.concat([cipher.update(JSON.stringify(body), "utf8"), cipher.final()])
  return Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString("base64url")
}

const isSealed = (value: unknown): value is Sealed => {
  if (typeof value !== "object" || value === null) return false
  const v = value as Record<string, unknown>
  return typeof v.s === "string" && typeof v.n === "string" && typeof v.v === "string" && typeof v.r === "string" && typeof v.e === "number"
}

/** The transaction in a cookie value, or undefined when it is missing, altered, sealed with another key or expired. */
export const open = (key: Buffer, value: string | undefined, nowMs: number): Transaction | undefined => {
  if (value === undefined || value.length > 4096) return undefined
  const bytes = Buffer.from(value, "base64url")
  if (bytes.length < 12 + 16 + 1) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8")
    const body: unknown = JSON.parse(plain)
    if (!isSealed(body) || body.e <= nowMs) return undefined
    return { state: body.s, nonce: body.n, codeVerifier: body.v, returnTo: body.r }
  } catch {
    return undefined
  }
}
