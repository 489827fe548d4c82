/**
 * Single sign-on end to end: a real Chromium signs in at a real OpenID provider (oidc-provider,
 * in this process, http on 127.0.0.1) and comes back to the standalone server on SQLite. The
 * first sign-in, from the dashboard's button, creates the person (sso, the default role in every
 * project) and lands where they were, signed in (GET /v1/me, the person's menu); the second finds
 * the same person; an unverified email, a domain not allowed, a disabled account, a provider that
 * says no and a tampered `state` each land on the sign-in page with the reason and no session; a
 * `returnTo` on another origin lands on /ui/.
 *
 * Chromium runs as one process here (test/ui/Browser.ts): one page for the file, its cookies
 * (Flagport's and the provider's session) cleared before each case, so nothing carries over.
 */
import { createServer } from "node:net"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { settingsFrom } from "../../adapters/oidc/OidcSettings.js"
import { SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"
import type { User } from "../../src/domain/people/User.js"
import { Members } from "../../src/services/people/Members.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { Users } from "../../src/services/people/Users.js"
import { startTestProvider, type TestProvider } from "../fixtures/OidcProvider.js"
import type { TestServer } from "../http/fixtures.js"
import { launch } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let provider: TestProvider
let server: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
let base: string

/** A port free now, for the server: its public URL (and so the redirect URI) must be known before it starts. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  provider = await startTestProvider(`${base}/auth/oidc/callback`)
  provider.accounts.set("alice", { email: "Alice@Example.com", email_verified: true, name: "Alice Example" })
  provider.accounts.set("bob", { email: "bob@example.com", email_verified: false, name: "Bob" })
  provider.accounts.set("eve", { email: "eve@elsewhere.org", email_verified: true, name: "Eve" })
  provider.accounts.set("carol", { email: "carol@example.com", email_verified: true, name: "Carol" })
  const settings = Either.getOrThrow(
    settingsFrom({
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      publicUrl: base,
      name: "Example SSO",
      allowedDomains: "example.com",
      defaultRole: "viewer"
    })
  )
  server = await startSqliteServer("sso", { port, oidc: settings })
  browser = await launch()
  context = await browser.newContext()
  page = await context.newPage()
  page.setDefaultTimeout(15_000)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await provider?.close()
})

const SESSION_COOKIE = "flagport_session"

beforeEach(async () => {
  await context.clearCookies()
})

/** The provider's development login form, as `login` (any password). */
const logInAtProvider = async (login: string): Promise<void> => {
  await page.locator("input[name=login]").fill(login)
  await page.locator("input[name=password]").fill("any password")
  await page.getByRole("button", { name: "Sign-in" }).click()
}

/** Signs in at the provider as `login` and consents (with its cookies cleared, it always asks), back to Flagport. */
const atProvider = async (login: string): Promise<void> => {
  await logInAtProvider(login)
  await page.getByRole("button", { name: "Continue" }).click()
  await page.waitForURL((url) => url.origin === base)
}

/** Starts a sign-in with `returnTo` and goes through the provider as `login`; answers where the browser landed. */
const signIn = async (login: string, returnTo: string): Promise<URL> => {
  await page.goto(`${base}/auth/oidc/login?returnTo=${encodeURIComponent(returnTo)}`)
  await page.waitForURL((url) => url.origin === provider.issuer)
  await atProvider(login)
  await page.waitForLoadState()
  return new URL(page.url())
}

const sessionToken = async (): Promise<string | undefined> =>
  (await context.cookies(base)).find((c) => c.name === SESSION_COOKIE)?.value

const userByEmail = async (email: string): Promise<User | undefined> =>
  (await server.run(Effect.flatMap(Users, (users) => users.list()))).find((u) => u.email.toLowerCase() === email.toLowerCase())

/** The person the browser's session cookie signs in, if any. */
const signedInAs = async () => {
  const token = await sessionToken()
  if (token === undefined) return undefined
  return Option.getOrUndefined(await server.run(Effect.flatMap(Sessions, (s) => s.authenticate(token))))
}

/** The sign-in page with `message`, and no session. */
const expectRefused = async (landed: URL, message: string) => {
  expect(`${landed.origin}${landed.pathname}`).toBe(`${base}/ui/signin`)
  expect(landed.searchParams.get("error")).toBe(message)
  expect(await sessionToken()).toBeUndefined()
}

describe("single sign-on", () => {
  let firstSignIn: string | null = null

  it("is offered on the sign-in page under its name", async () => {
    const providers = await context.request.get(`${base}/v1/auth/providers`)
    expect(await providers.json()).toEqual({ password: true, oidc: { name: "Example SSO" } })
  })

  it("a first sign-in, from the sign-in page's button, creates the person (sso, viewer in every project) and lands where they were, signed in", async () => {
    await page.goto(`${base}/ui/#/projects/p1/flags`)
    await page.getByRole("link", { name: "Sign in with Example SSO" }).click()
    await page.waitForURL((url) => url.origin === provider.issuer)
    await atProvider("alice")
    await page.waitForLoadState()
    expect(page.url()).toBe(`${base}/ui/#/projects/p1/flags`)
    // The dashboard shows the person signed in (their menu in the header).
    await page.getByText("Alice Example").first().waitFor()
    const me = await signedInAs()
    expect(me?.user).toMatchObject({ email: "Alice@Example.com", name: "Alice Example", sso: true, admin: false, disabledAt: null })
    expect([...(me?.memberships ?? [])].sort((a, b) => a.projectId.localeCompare(b.projectId))).toEqual([
      { projectId: "p1", role: "viewer" },
      { projectId: "p2", role: "viewer" }
    ])
    const members = await server.run(Effect.flatMap(Members, (m) => m.list("p1")))
    expect(JSON.stringify(members)).toContain(me!.user.id)
    firstSignIn = me!.user.lastSignInAt
    expect(firstSignIn).not.toBeNull()
    // The cookie works as a password sign-in's does: GET /v1/me answers the person.
    const meOverHttp = await context.request.get(`${base}/v1/me`)
    expect(meOverHttp.status()).toBe(200)
    expect(((await meOverHttp.json()) as { user: { id: string } }).user.id).toBe(me!.user.id)
    // The one-use transaction cookie is gone.
    expect((await context.cookies(base)).map((c) => c.name)).not.toContain("flagport_oidc")
  })

  it("a second sign-in finds the same person and moves lastSignInAt", async () => {
    const before = await userByEmail("alice@example.com")
    expect(before).toBeDefined()
    await new Promise((r) => setTimeout(r, 5))
    const landed = await signIn("alice", "/ui/#/projects/p2/flags")
    expect(landed.href).toBe(`${base}/ui/#/projects/p2/flags`)
    const me = await signedInAs()
    expect(me?.user.id).toBe(before!.id)
    expect(Date.parse(me!.user.lastSignInAt!)).toBeGreaterThan(Date.parse(firstSignIn!))
    expect((await server.run(Effect.flatMap(Users, (users) => users.list()))).filter((u) => u.email.toLowerCase() === "alice@example.com")).toHaveLength(1)
  })

  it("refuses an email the provider has not verified: no session, no account", async () => {
    await expectRefused(await signIn("bob", "/ui/"), SIGN_IN_REFUSALS.emailNotVerified)
    expect(await userByEmail("bob@example.com")).toBeUndefined()
    // The dashboard's sign-in page says why.
    await page.getByRole("heading", { name: "Sign in to Flagport" }).waitFor()
    expect(await page.getByRole("alert").textContent()).toContain(SIGN_IN_REFUSALS.emailNotVerified)
  })

  it("refuses an email whose domain is not allowed: no session, no account", async () => {
    await expectRefused(await signIn("eve", "/ui/"), SIGN_IN_REFUSALS.domainNotAllowed)
    expect(await userByEmail("eve@elsewhere.org")).toBeUndefined()
  })

  it("refuses a disabled account", async () => {
    await signIn("carol", "/ui/")
    const carol = (await signedInAs())!.user
    await context.clearCookies()
    await server.run(Effect.flatMap(Users, (users) => users.update(carol.id, { disabled: true })))
    await expectRefused(await signIn("carol", "/ui/"), SIGN_IN_REFUSALS.accountDisabled)
  })

  it("lands on /ui/ when returnTo names another origin", async () => {
    for (const returnTo of ["https://evil.example/ui/", "//evil.example/ui/", "/\\evil.example/"]) {
      await context.clearCookies()
      const landed = await signIn("alice", returnTo)
      expect(landed.href).toBe(`${base}/ui/`)
      expect((await signedInAs())?.user.email).toBe("Alice@Example.com")
    }
  })

  it("refuses a callback whose state was tampered with: no session", async () => {
    // The sign-in starts as the browser would start it (its transaction cookie set in the
    // browser), but the browser is sent to the provider with a changed state, which the provider
    // hands back unchanged.
    const started = await context.request.get(`${base}/auth/oidc/login?returnTo=${encodeURIComponent("/ui/")}`, { maxRedirects: 0 })
    expect(started.status()).toBe(302)
    expect((await context.cookies(base)).map((c) => c.name)).toContain("flagport_oidc")
    const authorization = new URL(started.headers().location!)
    expect(authorization.origin).toBe(provider.issuer)
    authorization.searchParams.set("state", `${authorization.searchParams.get("state")}x`)
    await page.goto(authorization.href)
    await atProvider("alice")
    await page.waitForLoadState()
    await expectRefused(new URL(page.url()), SIGN_IN_REFUSALS.signInFailed)
    expect(await userByEmail("alice@example.com")).toBeDefined()
    // Refused, and the transaction cookie spent with it.
    expect((await context.cookies(base)).map((c) => c.name)).not.toContain("flagport_oidc")
  })

  it("refuses a callback in a browser that did not start the sign-in (no transaction cookie)", async () => {
    await page.goto(`${base}/auth/oidc/callback?code=made-up&state=made-up`)
    await expectRefused(new URL(page.url()), SIGN_IN_REFUSALS.signInFailed)
  })

  it("lands on the sign-in page when the person declines at the provider", async () => {
    await page.goto(`${base}/auth/oidc/login?returnTo=${encodeURIComponent("/ui/")}`)
    await logInAtProvider("alice")
    await page.getByRole("button", { name: "Continue" }).waitFor()
    // The development consent page's "Cancel" aborts the interaction: access_denied back to the client.
    await page.getByRole("link", { name: /cancel/i }).click()
    await page.waitForURL((url) => url.origin === base)
    await page.waitForLoadState()
    await expectRefused(new URL(page.url()), SIGN_IN_REFUSALS.providerRefused)
  })
})
