/**
 * What a sign-in takes from the provider's claims (adapters/oidc/OidcClient.ts claimsFrom): the
 * email only with the provider's word that it is verified, a name when there is one.
 */
import { describe, expect, it } from "@effect/vitest"
import { claimsFrom } from "../../adapters/oidc/OidcClient.js"

const idToken = { iss: "https://id.example.com", sub: "subject-1" }

describe("the claims of a sign-in", () => {
  it.each([
    [{ email: "a@example.com", email_verified: true }, true],
    [{ email: "a@example.com", email_verified: "true" }, true],
    [{ email: "a@example.com", email_verified: false }, false],
    [{ email: "a@example.com", email_verified: "false" }, false],
    [{ email: "a@example.com", email_verified: 1 }, false],
    [{ email: "a@example.com" }, false],
    // Microsoft Entra ID: no email_verified, its optional claim xms_edov instead
    [{ email: "a@example.com", xms_edov: true }, true],
    [{ email: "a@example.com", xms_edov: false }, false],
    // a provider's own email_verified decides over xms_edov
    [{ email: "a@example.com", email_verified: false, xms_edov: true }, false]
  ])("%j: verified %s", (source, verified) => {
    expect(claimsFrom(idToken, source).emailVerified).toBe(verified)
  })

  it("takes the email from the source, trimmed, and none when it is missing or not text", () => {
    expect(claimsFrom(idToken, { email: " a@example.com " }).email).toBe("a@example.com")
    expect(claimsFrom(idToken, {}).email).toBeUndefined()
    expect(claimsFrom(idToken, { email: ["a@example.com"] }).email).toBeUndefined()
    expect(claimsFrom(idToken, { email: "  " }).email).toBeUndefined()
  })

  it("names the person by name, else given and family names, else the ID token's name, else none", () => {
    expect(claimsFrom(idToken, { name: "Ada Lovelace", given_name: "A" }).name).toBe("Ada Lovelace")
    expect(claimsFrom(idToken, { given_name: "Ada", family_name: "Lovelace" }).name).toBe("Ada Lovelace")
    expect(claimsFrom(idToken, { given_name: "Ada" }).name).toBe("Ada")
    expect(claimsFrom({ ...idToken, name: "From ID token" }, {}).name).toBe("From ID token")
    expect(claimsFrom(idToken, {}).name).toBeUndefined()
    expect(claimsFrom(idToken, {}).subject).toBe("subject-1")
    expect(claimsFrom(idToken, {}).issuer).toBe("https://id.example.com")
  })
})
