/**
 * The session cookie behind a proxy that ends TLS, and what a browser may keep of a person's
 * answers, through a real server: without a public URL, a trusted proxy's `X-Forwarded-Proto:
 * https` gives the `__Host-` Secure cookie (and the cookie is read under that name only); an
 * untrusted one is ignored; trusting a proxy without a public URL is warned about at start.
 * Every answer to a request carrying a session cookie, and every answer that sets one, is
 * `Cache-Control: no-store`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import * as Authentication from "../../adapters/http/shared/Authentication.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { makePerson, PASSWORD, sessionCookieOf, setCookieLine } from "./people.js"

const SECURE_COOKIE = /^__Host-flagport_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\/; Secure$/
const PLAIN_COOKIE = /^flagport_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\/$/

const login = (base: string, email: string, headers: Record<string, string> = {}) =>
  request(base, "POST", "/v1/auth/login", { body: { email, password: PASSWORD }, headers })

describe("behind a trusted proxy, without a public URL", () => {
  let proxied: TestServer
  let direct: TestServer
  beforeAll(async () => {
    proxied = await startServer(undefined, { lane: { trustProxy: "loopback" } })
    direct = await startServer()
    await proxied.run(makePerson("proxied@example.com"))
    await direct.run(makePerson("direct@example.com"))
  })
  afterAll(async () => {
    await proxied?.close()
    await direct?.close()
  })

  it("X-Forwarded-Proto: https gives the __Host- Secure cookie, read under that name only", async () => {
    const https = { "x-forwarded-proto": "https" }
    const reply = await login(proxied.url, "proxied@example.com", https)
    expect(reply.status, reply.text).toBe(200)
    expect(setCookieLine(reply.headers, "flagport_session")).toMatch(SECURE_COOKIE)
    // The device cookie beside it takes the same name prefix and Secure.
    expect(setCookieLine(reply.headers, "flagport_device")).toMatch(/^__Host-flagport_device=[A-Za-z0-9_.-]+; Max-Age=7776000; Path=\/; HttpOnly; Secure; SameSite=Strict$/)
    const cookie = sessionCookieOf(reply)
    expect((await request(proxied.url, "GET", "/v1/me", { headers: { cookie, ...https } })).status).toBe(200)
    // The same token under the plain name, over https: not this server's cookie there.
    const plain = cookie.replace(/^__Host-/, "")
    expect((await request(proxied.url, "GET", "/v1/me", { headers: { cookie: plain, ...https } })).status).toBe(401)
    // Signing out clears the cookie under its name.
    const out = await request(proxied.url, "POST", "/v1/auth/logout", { headers: { cookie, origin: "https://" + new URL(proxied.url).host, ...https } })
    expect(out.status, out.text).toBe(204)
    expect(out.headers.get("set-cookie")).toMatch(/^__Host-flagport_session=; HttpOnly; SameSite=Lax; Path=\/; Secure; Max-Age=0$/)
    expect((await request(proxied.url, "GET", "/v1/me", { headers: { cookie, ...https } })).status).toBe(401)
  })

  it("over plain http through the same proxy: the plain cookie", async () => {
    const reply = await login(proxied.url, "proxied@example.com", { "x-forwarded-proto": "http" })
    expect(setCookieLine(reply.headers, "flagport_session")).toMatch(PLAIN_COOKIE)
    expect(setCookieLine((await login(proxied.url, "proxied@example.com")).headers, "flagport_session")).toMatch(PLAIN_COOKIE)
  })

  it("a proxy that is not trusted is not believed: the plain cookie", async () => {
    const reply = await login(direct.url, "direct@example.com", { "x-forwarded-proto": "https" })
    expect(reply.status, reply.text).toBe(200)
    expect(setCookieLine(reply.headers, "flagport_session")).toMatch(PLAIN_COOKIE)
  })

  it("trusting a proxy without a public URL is warned about at start; with one, or with no proxy, it is not", async () => {
    const warningsOf = async (config: Authentication.AuthenticationConfig) => {
      const logs: Array<string> = []
      const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logs.push(String(message))))
      await Effect.runPromise(
        Effect.scoped(Layer.build(Authentication.layer(config))).pipe(Effect.provide(StorageLayer.memoryStorage), Effect.provide(capture))
      )
      return logs.filter((line) => line === Authentication.TRUSTED_PROXY_WITHOUT_PUBLIC_URL)
    }
    expect(await warningsOf({ trustProxy: 1 })).toHaveLength(1)
    expect(await warningsOf({ trustProxy: 1, publicUrl: "https://flags.example.com" })).toHaveLength(0)
    expect(await warningsOf({ trustProxy: false })).toHaveLength(0)
  })
})

describe("Cache-Control: no-store on a person's answers", () => {
  let t: TestServer
  let cookie: string
  beforeAll(async () => {
    t = await startServer()
    cookie = (await t.run(makePerson("cached@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))).cookie
  })
  afterAll(async () => {
    await t?.close()
  })

  it("on every answer to a request with the session cookie, success or failure, and on the sign-in that sets it", async () => {
    const answers = {
      me: await request(t.url, "GET", "/v1/me", { headers: { cookie } }),
      flags: await request(t.url, "GET", "/v1/projects/p1/flags", { headers: { cookie } }),
      otherProject: await request(t.url, "GET", "/v1/projects/p2/flags", { headers: { cookie } }),
      beyondRole: await request(t.url, "DELETE", "/v1/projects/p1/flags/x", { headers: { cookie, origin: t.url } }),
      endedSession: await request(t.url, "GET", "/v1/projects/p1/flags", { headers: { cookie: "flagport_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } }),
      signIn: await login(t.url, "cached@example.com")
    }
    expect(Object.fromEntries(Object.entries(answers).map(([name, reply]) => [name, [reply.status, reply.headers.get("cache-control")]]))).toEqual({
      me: [200, "no-store"],
      flags: [200, "no-store"],
      otherProject: [404, "no-store"],
      beyondRole: [403, "no-store"],
      endedSession: [401, "no-store"],
      signIn: [200, "no-store"]
    })
  })

  it("a key's answers are left to the caller", async () => {
    const reply = await request(t.url, "GET", "/v1/projects/p1/flags", { key: t.keys.scoped })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("cache-control")).toBeNull()
  })
})
