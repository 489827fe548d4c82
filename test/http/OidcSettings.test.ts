/**
 * Single sign-on settings (adapters/oidc/OidcSettings.ts): the issuer scheme rule (https, or
 * http on this machine only), the allowed domains list, the default role, and the start-up errors
 * of a half-configured provider, each naming the variable to fix.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { oidcConfig, parseAllowedDomains, parseDefaultRole, parseIssuer } from "../../adapters/oidc/OidcSettings.js"

describe("the issuer scheme rule", () => {
  it.each([
    ["https://login.example.com/realms/main", false],
    ["https://accounts.google.com", false],
    ["http://localhost:8081/realms/dev", true],
    ["http://127.0.0.1:3000", true]
  ])("accepts %s (insecure requests: %s)", (raw, insecure) => {
    const parsed = Either.getOrThrow(parseIssuer(raw))
    expect(parsed.insecure).toBe(insecure)
    expect(parsed.url.href.startsWith(raw)).toBe(true)
  })

  it.each([
    ["http://login.example.com", "must use https"],
    ["http://10.0.0.5:8080", "must use https"],
    ["http://127.0.0.2", "must use https"],
    ["http://localhost.example.com", "must use https"],
    ["ftp://login.example.com", "must use https"],
    ["login.example.com", "absolute https URL"],
    ["https://login.example.com/?realm=x", "query or fragment"],
    ["https://user:pw@login.example.com", "user name or password"]
  ])("refuses %s", (raw, why) => {
    expect(Either.getLeft(parseIssuer(raw)).pipe(Option.getOrThrow)).toContain(why)
  })
})

describe("the allowed domains list", () => {
  it.each([
    ["", []],
    [" , ", []],
    ["example.com", ["example.com"]],
    ["Example.COM, @corp.example.org ,", ["example.com", "corp.example.org"]],
    ["example.com,example.com", ["example.com"]]
  ])("%j -> %j", (raw, domains) => {
    expect(Either.getOrThrow(parseAllowedDomains(raw))).toEqual(domains)
  })

  it.each(["example.com; other.org", "*.example.com", "exa mple.com", "https://example.com", "-example.com"])("refuses %j naming it", (raw) => {
    const why = Option.getOrThrow(Either.getLeft(parseAllowedDomains(raw)))
    expect(why).toContain("is not an email domain")
  })
})

describe("the default role", () => {
  it.each([
    ["", "viewer"],
    ["viewer", "viewer"],
    ["Editor", "editor"],
    [" admin ", "admin"],
    ["none", null],
    ["NONE", null]
  ])("%j -> %j", (raw, role) => {
    expect(Either.getOrThrow(parseDefaultRole(raw))).toBe(role)
  })

  it("refuses anything else", () => {
    expect(Option.getOrThrow(Either.getLeft(parseDefaultRole("owner")))).toContain("viewer, editor, admin or none")
  })
})

const read = (env: Record<string, string>) =>
  Effect.runSyncExit(Effect.withConfigProvider(oidcConfig, ConfigProvider.fromMap(new Map(Object.entries(env)))))

const failure = (env: Record<string, string>): string => {
  const exit = read(env)
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure for ${JSON.stringify(env)}`)
  return String(exit.cause)
}

const COMPLETE = {
  FLAGPORT_OIDC_ISSUER: "https://login.example.com",
  FLAGPORT_OIDC_CLIENT_ID: "flagport",
  FLAGPORT_OIDC_CLIENT_SECRET: "s3cret",
  FLAGPORT_PUBLIC_URL: "https://flags.example.com/"
}

describe("the FLAGPORT_OIDC_* configuration", () => {
  it("is off without an issuer", () => {
    expect(Exit.isSuccess(read({})) && Option.isNone((read({}) as Exit.Success<Option.Option<unknown>, never>).value)).toBe(true)
  })

  it("reads a complete provider, with its redirect URI under the public URL", () => {
    const exit = read({ ...COMPLETE, FLAGPORT_OIDC_NAME: " Acme SSO ", FLAGPORT_OIDC_ALLOWED_DOMAINS: "acme.com", FLAGPORT_OIDC_DEFAULT_ROLE: "none" })
    if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
    const settings = Option.getOrThrow(exit.value)
    expect(settings.redirectUri).toBe("https://flags.example.com/auth/oidc/callback")
    expect(settings.name).toBe("Acme SSO")
    expect(settings.allowedDomains).toEqual(["acme.com"])
    expect(settings.defaultRole).toBeNull()
    expect(settings.insecure).toBe(false)
    expect(Redacted.value(settings.clientSecret)).toBe("s3cret")
    // the secret never shows in a log of the settings
    expect(JSON.stringify(settings)).not.toContain("s3cret")
  })

  it("defaults: the button says Single sign-on, every domain, viewer", () => {
    const exit = read(COMPLETE)
    if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
    const settings = Option.getOrThrow(exit.value)
    expect([settings.name, settings.allowedDomains, settings.defaultRole]).toEqual(["Single sign-on", [], "viewer"])
  })

  it.each([
    [{ FLAGPORT_OIDC_ISSUER: "http://login.example.com" }, "Invalid data at FLAGPORT_OIDC_ISSUER: \"must use https"],
    [{ ...COMPLETE, FLAGPORT_OIDC_CLIENT_ID: "" }, "Missing data at FLAGPORT_OIDC_CLIENT_ID: \"required when FLAGPORT_OIDC_ISSUER is set"],
    [{ ...COMPLETE, FLAGPORT_OIDC_CLIENT_SECRET: "" }, "Missing data at FLAGPORT_OIDC_CLIENT_SECRET: \"required when FLAGPORT_OIDC_ISSUER is set"],
    [{ ...COMPLETE, FLAGPORT_PUBLIC_URL: "" }, "Missing data at FLAGPORT_PUBLIC_URL: \"required when FLAGPORT_OIDC_ISSUER is set (the redirect URI is <public URL>/auth/oidc/callback)"],
    [{ ...COMPLETE, FLAGPORT_PUBLIC_URL: "flags.example.com" }, "Invalid data at FLAGPORT_PUBLIC_URL: \"must be an absolute http or https URL"],
    [{ ...COMPLETE, FLAGPORT_OIDC_ALLOWED_DOMAINS: "acme.com;b.com" }, "Invalid data at FLAGPORT_OIDC_ALLOWED_DOMAINS: \"\"acme.com;b.com\" is not an email domain"],
    [{ ...COMPLETE, FLAGPORT_OIDC_DEFAULT_ROLE: "owner" }, "Invalid data at FLAGPORT_OIDC_DEFAULT_ROLE: \"must be viewer, editor, admin or none"]
  ])("stops the start on %j: %s", (env, message) => {
    expect(failure(env)).toContain(message)
  })
})
