/**
 * The sealed sign-in transaction (adapters/http/signin/TransactionCookie.ts): what is sealed
 * opens again, and an altered, foreign, truncated or expired cookie opens to nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { open, seal, sealingKey, TRANSACTION_TTL_SECONDS } from "../../adapters/http/signin/TransactionCookie.js"

const key = sealingKey("client-secret")
const tx = { state: "st", nonce: "no", codeVerifier: "cv".repeat(22), returnTo: "/ui/#/flags" }
const NOW = 1_800_000_000_000

describe("the transaction cookie", () => {
  it("opens to what was sealed, until it expires", () => {
    const value = seal(key, tx, NOW)
    expect(open(key, value, NOW)).toEqual(tx)
    expect(open(key, value, NOW + TRANSACTION_TTL_SECONDS * 1000 - 1)).toEqual(tx)
    expect(open(key, value, NOW + TRANSACTION_TTL_SECONDS * 1000)).toBeUndefined()
  })

  it("hides its contents", () => {
    const value = Buffer.from(seal(key, tx, NOW), "base64url").toString("latin1")
    expect(value).not.toContain("/ui/")
    expect(value).not.toContain(tx.codeVerifier)
  })

  it("refuses a cookie changed anywhere, sealed with another secret, cut short, or missing", () => {
    const value = seal(key, tx, NOW)
    const bytes = Buffer.from(value, "base64url")
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes)
      altered[i] = altered[i]! ^ 1
      expect(open(key, altered.toString("base64url"), NOW), `byte ${i}`).toBeUndefined()
    }
    expect(open(sealingKey("another-secret"), value, NOW)).toBeUndefined()
    expect(open(key, value.slice(0, 20), NOW)).toBeUndefined()
    expect(open(key, "", NOW)).toBeUndefined()
    expect(open(key, undefined, NOW)).toBeUndefined()
    expect(open(key, "%%%not base64%%%", NOW)).toBeUndefined()
  })

  it("seals each sign-in differently (a fresh IV)", () => {
    expect(seal(key, tx, NOW)).not.toBe(seal(key, tx, NOW))
  })
})
