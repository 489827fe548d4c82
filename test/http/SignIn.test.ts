/**
 * People over HTTP through a real server: signing in and out, the cookie's attributes, setup
 * links (invitation and reset), `/v1/me`, the failed sign-in limit (429 with Retry-After, and its
 * end), CSRF on cookie writes, a request with both a key and a cookie, the https cookie, users,
 * members and the audit log's person. On SQLite (PostgreSQL: SessionProcesses.test.ts and the
 * authorization matrix).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PeopleMessages } from "../../src/domain/auth/PeopleMessages.js"
import { Messages } from "../../src/domain/auth/Policy.js"
import { SIGN_IN_FAILURE_WINDOW_MS } from "../../src/domain/people/SignInLimit.js"
import { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { asPerson, makePerson, PASSWORD, type Person, sessionCookieOf, setCookieLine } from "./people.js"

const INVALID = { error: { code: "unauthorized", message: "Invalid email or password" } }
/** The refusal of a cookie write from another origin; its details say which origin was expected (and what came). */
const crossSite = (why: string) => ({ error: { code: "forbidden", message: PeopleMessages.crossSite, details: [{ path: "Origin", message: why }] } })
const SESSION_ENDED = { error: { code: "unauthorized", message: PeopleMessages.sessionEnded } }

let t: TestServer
let admin: Person
beforeAll(async () => {
  // On SQLite: sessions, setup tokens and the failure counts as a real database keeps them.
  t = await startServer(freshStorage("sqlite"))
  admin = await t.run(makePerson("root@example.com", { admin: true }))
})
afterAll(async () => {
  await t?.close()
})

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  request(t.url, "POST", "/v1/auth/login", { body: { email, password }, headers })
const me = (cookie: string) => request(t.url, "GET", "/v1/me", { headers: { cookie } })
const tokenOf = (setupUrl: string) => decodeURIComponent(setupUrl.split("#token=")[1]!)

describe("signing in and out", () => {
  it("GET /v1/auth/providers: password, and no single sign-on unless configured", async () => {
    const reply = await request(t.url, "GET", "/v1/auth/providers")
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 200, body: { password: true, oidc: null } })
  })

  it("POST /v1/auth/login answers the person and sets the cookie with the contract's attributes", async () => {
    await t.run(makePerson("ada@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    const reply = await login("ADA@example.com", PASSWORD)
    expect(reply.status, reply.text).toBe(200)
    const body = reply.body as { user: { email: string; lastSignInAt: string | null }; memberships: unknown }
    expect(body.user.email).toBe("ada@example.com")
    expect(body.memberships).toEqual([{ projectId: "p1", role: "editor" }])
    expect(setCookieLine(reply.headers, "flagport_session")).toMatch(/^flagport_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\/$/)
    const mine = await me(sessionCookieOf(reply))
    expect(mine.status).toBe(200)
    expect((mine.body as { user: { email: string } }).user.email).toBe("ada@example.com")
    expect(JSON.stringify(mine.body)).not.toContain(PASSWORD)
  })

  it("the sign-in's answer shows this sign-in as lastSignInAt, as GET /v1/me does afterwards", async () => {
    await t.run(makePerson("again@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    const lastOf = (body: unknown) => (body as { user: { lastSignInAt: string | null } }).user.lastSignInAt
    const first = await login("again@example.com", PASSWORD)
    expect(first.status, first.text).toBe(200)
    await new Promise((resolve) => setTimeout(resolve, 5)) // timestamps are in milliseconds
    const second = await login("again@example.com", PASSWORD)
    expect(second.status, second.text).toBe(200)
    expect(lastOf(second.body)! > lastOf(first.body)!).toBe(true)
    expect(lastOf((await me(sessionCookieOf(second))).body)).toBe(lastOf(second.body))
  })

  it("a wrong password, an unknown email and a disabled user get the same 401, and no cookie", async () => {
    const disabled = await t.run(makePerson("gone@example.com"))
    expect((await asPerson(t.url, admin.cookie, "PATCH", `/v1/users/${disabled.id}`, { disabled: true })).status).toBe(200)
    await t.run(makePerson("bob@example.com"))
    for (const [email, password] of [["bob@example.com", "not the password at all"], ["nobody@example.com", PASSWORD], ["gone@example.com", PASSWORD]]) {
      const reply = await login(email!, password!)
      expect({ status: reply.status, body: reply.body }, email).toEqual({ status: 401, body: INVALID })
      expect(reply.headers.get("set-cookie")).toBeNull()
    }
  })

  it("GET /v1/me: 401 without a session, with a key alone, and with a cookie that is no session", async () => {
    const without = await request(t.url, "GET", "/v1/me")
    expect({ status: without.status, body: without.body }).toEqual({ status: 401, body: { error: { code: "unauthorized", message: PeopleMessages.sessionRequired } } })
    const withKey = await request(t.url, "GET", "/v1/me", { key: t.keys.global })
    expect(withKey.status).toBe(401)
    const bogus = await me(`flagport_session=${"x".repeat(43)}`)
    expect({ status: bogus.status, body: bogus.body }).toEqual({ status: 401, body: SESSION_ENDED })
  })

  it("POST /v1/auth/logout: 204, the cookie removed, and the session refused afterwards", async () => {
    const person = await t.run(makePerson("leaving@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    expect((await me(person.cookie)).status).toBe(200)
    const reply = await asPerson(t.url, person.cookie, "POST", "/v1/auth/logout")
    expect(reply.status).toBe(204)
    expect(reply.headers.get("set-cookie")).toBe("flagport_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0")
    expect((await me(person.cookie)).body).toEqual(SESSION_ENDED)
    expect((await asPerson(t.url, person.cookie, "GET", "/v1/projects/p1/flags")).body).toEqual(SESSION_ENDED)
    // Without a session there is nothing to end: still 204.
    expect((await request(t.url, "POST", "/v1/auth/logout")).status).toBe(204)
  })

  it("logout from another site is refused (the session stays)", async () => {
    const person = await t.run(makePerson("stays@example.com"))
    const reply = await request(t.url, "POST", "/v1/auth/logout", { headers: { cookie: person.cookie, origin: "https://evil.example" } })
    expect({ status: reply.status, body: reply.body }).toEqual({
      status: 403,
      body: crossSite(`expected ${t.url} (the origin this request reached); got https://evil.example`)
    })
    expect((await me(person.cookie)).status).toBe(200)
  })
})

describe("setup links", () => {
  it("an invitation: POST /v1/users answers a setup link; POST /v1/auth/setup sets the password and signs in, once", async () => {
    const invited = await asPerson(t.url, admin.cookie, "POST", "/v1/users", { email: "Edna@Example.com", name: "Edna", projects: [{ projectId: "p1", role: "editor" }] })
    expect(invited.status, invited.text).toBe(201)
    const { setupUrl, user } = invited.body as { setupUrl: string; user: { email: string; name: string } }
    expect(user).toMatchObject({ email: "Edna@Example.com", name: "Edna", admin: false, disabledAt: null })
    expect(setupUrl.startsWith(`${t.url}/ui/setup#token=`)).toBe(true)
    const reply = await request(t.url, "POST", "/v1/auth/setup", { body: { token: tokenOf(setupUrl), password: "a brand new passphrase" } })
    expect(reply.status, reply.text).toBe(200)
    expect((reply.body as { memberships: unknown }).memberships).toEqual([{ projectId: "p1", role: "editor" }])
    expect((await me(sessionCookieOf(reply))).status).toBe(200)
    expect((await login("edna@example.com", "a brand new passphrase")).status).toBe(200)
    const again = await request(t.url, "POST", "/v1/auth/setup", { body: { token: tokenOf(setupUrl), password: "another passphrase!" } })
    expect(again.status).toBe(400)
    expect(again.body).toMatchObject({ error: { code: "invalid_request", message: "Setup link is invalid or has expired" } })
  })

  it("an unknown token: 400; a too-short password: 400 naming the field", async () => {
    const unknown = await request(t.url, "POST", "/v1/auth/setup", { body: { token: "no-such-token", password: "long enough password" } })
    expect((unknown.body as { error: { message: string } }).error.message).toBe("Setup link is invalid or has expired")
    const invited = await asPerson(t.url, admin.cookie, "POST", "/v1/users", { email: "short@example.com" })
    const short = await request(t.url, "POST", "/v1/auth/setup", { body: { token: tokenOf((invited.body as { setupUrl: string }).setupUrl), password: "short" } })
    expect(short.status).toBe(400)
    expect(short.text).toContain("password")
  })

  it("POST /v1/users/{id}/reset-password ends the person's sessions and answers a new link", async () => {
    const person = await t.run(makePerson("forgot@example.com"))
    const reply = await asPerson(t.url, admin.cookie, "POST", `/v1/users/${person.id}/reset-password`)
    expect(reply.status, reply.text).toBe(200)
    expect((await me(person.cookie)).body).toEqual(SESSION_ENDED)
    expect((await login("forgot@example.com", PASSWORD)).status).toBe(401)
    const setup = await request(t.url, "POST", "/v1/auth/setup", { body: { token: tokenOf((reply.body as { setupUrl: string }).setupUrl), password: "remembered this time" } })
    expect(setup.status).toBe(200)
  })
})

describe("the failed sign-in limit", () => {
  it("after ten failures for one email: 429 with Retry-After, even with the right password; unknown emails alike", async () => {
    await t.run(makePerson("target@example.com"))
    for (const email of ["target@example.com", "unknown-target@example.com"]) {
      for (let i = 0; i < 10; i++) expect((await login(email, "wrong password guess")).status).toBe(401)
      const limited = await login(email, PASSWORD)
      expect(limited.status).toBe(429)
      expect((limited.body as { error: { code: string } }).error.code).toBe("rate_limited")
      const retryAfter = Number(limited.headers.get("retry-after"))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(900)
    }
    // Another email is not limited.
    expect((await login("ada@example.com", PASSWORD)).status).toBe(200)
  })

  it("ends when the window has passed: the right password works again", async () => {
    await t.run(makePerson("patient@example.com"))
    // Ten failures that leave the 15-minute window in about two seconds.
    const at = new Date(Date.now() - SIGN_IN_FAILURE_WINDOW_MS + 2_000).toISOString()
    const old = new Date(0).toISOString()
    await t.run(Effect.flatMap(SignInFailureRepository, (failures) => Effect.forEach(Array.from({ length: 10 }), () => failures.record("patient@example.com", "127.0.0.1", at, old))))
    const limited = await login("patient@example.com", PASSWORD)
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(3)
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 200))
    expect((await login("patient@example.com", PASSWORD)).status).toBe(200)
  })
})

describe("CSRF and the choice between key and cookie", () => {
  const flag = (key: string) => ({ key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })

  it("a cookie write needs Origin equal to the server's origin", async () => {
    const editor = await t.run(makePerson("csrf@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    const missing = await request(t.url, "POST", "/v1/projects/p1/flags", { headers: { cookie: editor.cookie }, body: flag("csrf-a") })
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 403,
      body: crossSite(`expected ${t.url} (the origin this request reached); none was sent`)
    })
    for (const origin of ["https://evil.example", "null", t.url.replace("127.0.0.1", "localhost"), `${t.url}/`]) {
      const reply = await request(t.url, "POST", "/v1/projects/p1/flags", { headers: { cookie: editor.cookie, origin }, body: flag("csrf-b") })
      expect({ status: reply.status, body: reply.body }, origin).toEqual({
        status: 403,
        body: crossSite(`expected ${t.url} (the origin this request reached); got ${origin}`)
      })
    }
    // An Origin of any length is refused, and repeated only in part.
    const long = `https://${"a".repeat(300)}.example`
    const longReply = await request(t.url, "POST", "/v1/projects/p1/flags", { headers: { cookie: editor.cookie, origin: long }, body: flag("csrf-b") })
    expect(longReply.body).toEqual(crossSite(`expected ${t.url} (the origin this request reached); got ${long.slice(0, 200)}...`))
    expect((await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/flags", flag("csrf-c"))).status).toBe(201)
    // Reads need no Origin; key writes never did.
    expect((await request(t.url, "GET", "/v1/projects/p1/flags", { headers: { cookie: editor.cookie } })).status).toBe(200)
    expect((await request(t.url, "POST", "/v1/projects/p1/flags", { key: t.keys.scoped, body: flag("csrf-d") })).status).toBe(201)
  })

  it("a request with both a key and a cookie is judged by the key", async () => {
    const viewer = await t.run(makePerson("both@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    // A viewer's cookie with a server key: the key's write (and no Origin needed).
    const write = await request(t.url, "POST", "/v1/projects/p1/flags", { key: t.keys.scoped, headers: { cookie: viewer.cookie }, body: flag("both-a") })
    expect(write.status, write.text).toBe(201)
    // An admin's cookie with an unknown key: the key's 401.
    const unknown = await request(t.url, "GET", "/v1/projects/p1/flags", { headers: { cookie: admin.cookie, authorization: "Bearer srv_nope" } })
    expect(unknown.body).toEqual({ error: { code: "unauthorized", message: Messages.invalidKey } })
  })

  it("evaluation, config and stream routes stay key-only: a session cookie is no credential there", async () => {
    for (const path of ["/v1/config?environment=development&projectId=p1", "/v1/stream?environment=development&projectId=p1", "/v1/flags/x/eval?environment=development&key=u&projectId=p1"]) {
      const reply = await request(t.url, "GET", path, { headers: { cookie: admin.cookie } })
      expect({ status: reply.status, body: reply.body }, path).toEqual({ status: 401, body: { error: { code: "unauthorized", message: Messages.malformedHeader } } })
    }
  })
})

describe("users, members and the audit log's person", () => {
  it("a global admin cannot remove their own admin flag or disable themselves (409)", async () => {
    for (const patch of [{ admin: false }, { disabled: true }]) {
      const reply = await asPerson(t.url, admin.cookie, "PATCH", `/v1/users/${admin.id}`, patch)
      expect(reply.status, reply.text).toBe(409)
    }
    const list = await asPerson(t.url, admin.cookie, "GET", "/v1/users")
    expect((list.body as { data: Array<{ email: string }> }).data.map((u) => u.email)).toContain("root@example.com")
  })

  it("a project admin manages members; removing the last membership ends the member's sessions", async () => {
    const padmin = await t.run(makePerson("members-admin@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    const member = await t.run(makePerson("member@example.com"))
    const put = await asPerson(t.url, padmin.cookie, "PUT", `/v1/projects/p1/members/${member.id}`, { role: "viewer" })
    expect(put.status, put.text).toBe(200)
    expect(put.body).toMatchObject({ user: { id: member.id }, role: "viewer" })
    const list = await asPerson(t.url, padmin.cookie, "GET", "/v1/projects/p1/members")
    expect((list.body as { data: Array<{ user: { id: string }; role: string }> }).data.find((m) => m.user.id === member.id)?.role).toBe("viewer")
    expect((await asPerson(t.url, member.cookie, "GET", "/v1/projects/p1/flags")).status).toBe(200)
    expect((await asPerson(t.url, padmin.cookie, "DELETE", `/v1/projects/p1/members/${member.id}`)).status).toBe(204)
    expect((await me(member.cookie)).body).toEqual(SESSION_ENDED)
  })

  it("GET /v1/projects lists a member's projects only", async () => {
    const other = await t.run(makePerson("lists@example.com", { projects: [{ projectId: "p2", role: "viewer" }] }))
    const reply = await asPerson(t.url, other.cookie, "GET", "/v1/projects")
    expect((reply.body as { data: Array<{ id: string }> }).data.map((p) => p.id)).toEqual(["p2"])
  })

  it("a person's write is audited with actor { type: user, userId, email }", async () => {
    const editor = await t.run(makePerson("audited@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    expect((await asPerson(t.url, editor.cookie, "POST", "/v1/projects/p1/flags", flag("audited"))).status).toBe(201)
    const audit = await asPerson(t.url, editor.cookie, "GET", "/v1/projects/p1/audit?resourceType=flag&resourceKey=audited")
    const entry = (audit.body as { data: Array<{ actor: unknown; action: string }> }).data[0]
    expect(entry).toMatchObject({ action: "flag.created", actor: { type: "user", userId: editor.id, email: "audited@example.com" } })
  })

  const flag = (key: string) => ({ key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
})

describe("with an https public URL", () => {
  let secure: TestServer
  let person: Person
  beforeAll(async () => {
    secure = await startServer(undefined, { lane: { publicUrl: "https://flags.example.com" } })
    person = await secure.run(makePerson("secure@example.com", { admin: true }))
  })
  afterAll(async () => {
    await secure?.close()
  })

  it("the cookie is __Host-flagport_session, Secure; writes need the public URL's origin; links start with it", async () => {
    const reply = await request(secure.url, "POST", "/v1/auth/login", { body: { email: "secure@example.com", password: PASSWORD } })
    expect(setCookieLine(reply.headers, "flagport_session")).toMatch(/^__Host-flagport_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Lax; Path=\/; Secure$/)
    const cookie = sessionCookieOf(reply)
    expect((await request(secure.url, "GET", "/v1/me", { headers: { cookie } })).status).toBe(200)
    // The plain name is not this server's cookie.
    expect((await request(secure.url, "GET", "/v1/me", { headers: { cookie: person.cookie } })).status).toBe(401)
    // Opened at the address the server listens on rather than its public URL: refused, saying which origin it expects.
    const fromHost = await request(secure.url, "POST", "/v1/users", { headers: { cookie, origin: secure.url }, body: { email: "x@example.com" } })
    expect({ status: fromHost.status, body: fromHost.body }).toEqual({
      status: 403,
      body: crossSite(`expected https://flags.example.com (FLAGPORT_PUBLIC_URL's origin); got ${secure.url}`)
    })
    const invited = await request(secure.url, "POST", "/v1/users", { headers: { cookie, origin: "https://flags.example.com" }, body: { email: "x@example.com" } })
    expect(invited.status, invited.text).toBe(201)
    expect((invited.body as { setupUrl: string }).setupUrl.startsWith("https://flags.example.com/ui/setup#token=")).toBe(true)
  })
})
