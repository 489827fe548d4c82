/**
 * How emails are compared (src/domain/people/User.ts normalizeEmail): ASCII letters are lowercased,
 * the domain is NFKC, and a local part beyond ASCII is kept exactly, so no fold makes two people's
 * addresses one (the Kelvin sign, U+212A, is not `k`).
 */
import { describe, expect, it } from "@effect/vitest"
import { isLocalhostEmail } from "../../../src/domain/people/SsoLink.js"
import { emailDomain, normalizeEmail } from "../../../src/domain/people/User.js"

describe("normalizeEmail", () => {
  it.each([
    [" Edna@Example.COM ", "edna@example.com"],
    ["\u212Aate@example.com", "\u212Aate@example.com"],
    ["\u212AATE@EXAMPLE.com", "\u212AATE@example.com"],
    ["Élise@Example.com", "Élise@example.com"],
    ["ß@example.com", "ß@example.com"],
    ["ann@\uFF25xample.com", "ann@example.com"],
    ["ann@EXAMPLE.\u212Aom", "ann@example.kom"],
    ["İ@example.com", "İ@example.com"]
  ])("%j -> %j", (email, normalized) => {
    expect(normalizeEmail(email)).toBe(normalized)
  })

  it("keeps apart what a Unicode case fold would merge", () => {
    expect(normalizeEmail("\u212Aate@example.com")).not.toBe(normalizeEmail("kate@example.com"))
    expect(normalizeEmail("ǅ@example.com")).not.toBe(normalizeEmail("ǆ@example.com"))
  })

  it("the domain, as FLAGPORT_OIDC_ALLOWED_DOMAINS is matched against", () => {
    expect(emailDomain("a@Corp.Example")).toBe("corp.example")
  })
})

describe("isLocalhostEmail", () => {
  it.each([
    ["admin@localhost", true],
    ["admin@LOCALHOST", true],
    ["admin@localhost.", true],
    ["a@dev.localhost", true],
    ["a@localhost.example.com", false],
    ["a@notlocalhost", false],
    ["a@example.com", false]
  ])("%j: %j", (email, expected) => {
    expect(isLocalhostEmail(email)).toBe(expected)
  })
})
