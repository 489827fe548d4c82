/**
 * Single sign-on's routes without a browser (the browser's way through them: test/ui/SingleSignOn.test.ts):
 * off unless configured, GET only, a provider down at start neither stops the server nor stays
 * remembered, the authorization request (code, PKCE S256, state, nonce, the registered redirect
 * URI) and its transaction cookie, and the same routes under a host's prefix through the node and
 * web handlers.
 */
import { createServer as createHttpServer } from "node:http"
import { createServer } from "node:net"
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { settingsFrom } from "../../adapters/oidc/OidcSettings.js"
import { SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"
import { startTestProvider, type TestProvider } from "../fixtures/OidcProvider.js"
import { startServer, type TestServer } from "./fixtures.js"

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

const settingsFor = (issuer: string, publicUrl: string) =>
  Either.getOrThrow(
    settingsFrom({ issuer, clientId: "flagport-test", clientSecret: "a-test-client-secret-of-some-length-0123456789", publicUrl, name: "", allowedDomains: "", defaultRole: "" })
  )

const get = (url: string) => fetch(url, { redirect: "manual" })

/** The provider at `issuer`'s port, for the server whose public URL is `publicUrl`. */
const providerAt = async (publicUrl: string, port: number): Promise<TestProvider> => {
  const provider = await startTestProvider(`${publicUrl}/auth/oidc/callback`, port)
  closers.push(provider.close)
  return provider
}

const started = async (options: Parameters<typeof startServer>[1]): Promise<TestServer> => {
  const server = await startServer(StorageLayer.memoryStorage, options)
  closers.push(server.close)
  return server
}

/** Checks an authorization redirect to `issuer` for `redirectUri`, and answers its transaction cookie. */
const expectAuthorizationRequest = (response: Response, issuer: string, redirectUri: string): string => {
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get("location")!)
  expect(location.origin).toBe(issuer)
  expect(Object.fromEntries(location.searchParams)).toMatchObject({
    response_type: "code",
    client_id: "flagport-test",
    redirect_uri: redirectUri,
    scope: "openid email profile",
    code_challenge_method: "S256"
  })
  for (const name of ["code_challenge", "state", "nonce"]) expect(location.searchParams.get(name)?.length ?? 0).toBeGreaterThanOrEqual(22)
  expect(response.headers.get("cache-control")).toBe("no-store")
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("flagport_oidc="))
  expect(cookie).toBeDefined()
  expect(cookie).toMatch(/; Max-Age=600/)
  expect(cookie).toMatch(/; Path=\//)
  expect(cookie).toMatch(/; HttpOnly/)
  expect(cookie).toMatch(/; SameSite=Lax/)
  // Nothing of the transaction readable in the cookie.
  expect(cookie).not.toContain(location.searchParams.get("state")!)
  return cookie!
}

describe("single sign-on routes", () => {
  it("are off without a provider: 404 saying so; POST is 405", async () => {
    const server = await started({})
    for (const path of ["/auth/oidc/login?returnTo=/ui/", "/auth/oidc/callback?code=x&state=y"]) {
      const reply = await get(`${server.url}${path}`)
      expect(reply.status).toBe(404)
      expect(await reply.text()).toContain("Single sign-on is not configured")
    }
    const posted = await fetch(`${server.url}/auth/oidc/login`, { method: "POST" })
    expect(posted.status).toBe(405)
    expect(posted.headers.get("allow")).toBe("GET, HEAD")
  })

  it("start with the provider down, say so at sign-in, and sign in once it is up (discovery is not remembered when it fails)", async () => {
    const [port, providerPort] = [await freePort(), await freePort()]
    const publicUrl = `http://127.0.0.1:${port}`
    const issuer = `http://127.0.0.1:${providerPort}`
    const server = await started({ port, oidc: settingsFor(issuer, publicUrl) })
    const down = await get(`${server.url}/auth/oidc/login?returnTo=/ui/`)
    expect(down.status).toBe(302)
    const refused = new URL(down.headers.get("location")!)
    expect(`${refused.origin}${refused.pathname}`).toBe(`${publicUrl}/ui/signin`)
    expect(refused.searchParams.get("error")).toBe(SIGN_IN_REFUSALS.providerUnavailable)
    expect(down.headers.getSetCookie()).toEqual([])
    await providerAt(publicUrl, providerPort)
    expectAuthorizationRequest(await get(`${server.url}/auth/oidc/login?returnTo=/ui/`), issuer, `${publicUrl}/auth/oidc/callback`)
  })

  it("refuse a callback without its transaction cookie, and clear the cookie whatever the outcome", async () => {
    const port = await freePort()
    const publicUrl = `http://127.0.0.1:${port}`
    const provider = await providerAt(publicUrl, await freePort())
    const server = await started({ port, oidc: settingsFor(provider.issuer, publicUrl) })
    const reply = await get(`${server.url}/auth/oidc/callback?code=made-up&state=made-up`)
    expect(reply.status).toBe(302)
    expect(new URL(reply.headers.get("location")!).searchParams.get("error")).toBe(SIGN_IN_REFUSALS.signInFailed)
    expect(reply.headers.getSetCookie()).toEqual([expect.stringMatching(/^flagport_oidc=; .*Max-Age=0/)])
  })

  it("are served under a host's prefix by the node and web handlers alike", async () => {
    const publicUrl = "http://host.example/flags"
    const provider = await providerAt(publicUrl, await freePort())
    const handlers = await makeHandlers({
      prefix: "/flags",
      services: App.servicesFrom(StorageLayer.memoryStorage),
      dashboard: false,
      oidc: settingsFor(provider.issuer, publicUrl)
    })
    closers.push(handlers.dispose)
    const web = await handlers.web(new Request(`${publicUrl}/auth/oidc/login?returnTo=${encodeURIComponent("/flags/ui/#/flags")}`, { redirect: "manual" }))
    expectAuthorizationRequest(web, provider.issuer, `${publicUrl}/auth/oidc/callback`)
    const host = createHttpServer((req, res) => (req.url?.startsWith("/flags/") ? handlers.node(req, res) : res.writeHead(404).end()))
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
    closers.push(() => new Promise((resolve) => host.close(resolve)))
    const node = await get(`http://127.0.0.1:${(host.address() as { port: number }).port}/flags/auth/oidc/login?returnTo=/flags/ui/`)
    expectAuthorizationRequest(node, provider.issuer, `${publicUrl}/auth/oidc/callback`)
  })
})
