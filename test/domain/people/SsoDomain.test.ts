import { describe, expect, it } from "vitest"
import { domainAllowed, parseAllowedDomains } from "../../../src/domain/people/SsoDomain.js"
import { setupUrl } from "../../../src/domain/people/SetupLink.js"
import { emailDomain } from "../../../src/domain/people/User.js"

describe("FLAGPORT_OIDC_ALLOWED_DOMAINS", () => {
  it.each([
    { text: "", domains: [] },
    { text: "example.com", domains: ["example.com"] },
    { text: " Example.COM, @corp.example ,, ", domains: ["example.com", "corp.example"] }
  ])("'$text' -> $domains", ({ text, domains }) => {
    expect(parseAllowedDomains(text)).toEqual(domains)
  })

  it.each([
    { email: "edna@example.com", allowed: [], ok: true },
    { email: "edna@example.com", allowed: ["example.com"], ok: true },
    { email: " Edna@EXAMPLE.com ", allowed: ["example.com"], ok: true },
    { email: "edna@Example.com", allowed: ["EXAMPLE.COM"], ok: true },
    { email: "edna@sub.example.com", allowed: ["example.com"], ok: false },
    { email: "edna@example.com.evil", allowed: ["example.com"], ok: false },
    { email: "example.com@evil.test", allowed: ["example.com"], ok: false },
    { email: "edna@evil.test", allowed: ["example.com", "corp.example"], ok: false }
  ])("$email with $allowed: $ok", ({ email, allowed, ok }) => {
    expect(domainAllowed(email, allowed)).toBe(ok)
  })
})

describe("emailDomain", () => {
  // The index of the @ is taken in the trimmed text, not in the raw one (leading spaces shifted it).
  it.each([
    { email: "edna@example.com", domain: "example.com" },
    { email: "Edna@EXAMPLE.com", domain: "example.com" },
    { email: " edna@example.com", domain: "example.com" },
    { email: "   edna@example.com  ", domain: "example.com" },
    { email: "\tEdna@Corp.Example\n", domain: "corp.example" },
    { email: "a@b@example.com", domain: "example.com" }
  ])("'$email' -> $domain", ({ email, domain }) => {
    expect(emailDomain(email)).toBe(domain)
  })
})

describe("setup links", () => {
  it.each([
    { publicUrl: "http://localhost:8080", url: "http://localhost:8080/ui/setup#token=abc_-1" },
    { publicUrl: "https://flags.example.com/", url: "https://flags.example.com/ui/setup#token=abc_-1" },
    { publicUrl: "https://example.com/flagport//", url: "https://example.com/flagport/ui/setup#token=abc_-1" }
  ])("$publicUrl", ({ publicUrl, url }) => {
    expect(setupUrl(publicUrl, "abc_-1")).toBe(url)
  })
})
