/**
 * Sessions across two server processes on one PostgreSQL: a `flagport serve` child beside this
 * test's in-process server. A session started on either works on both (sessions are in the
 * database), and a sign-out, a disabled user or a password reset through one process is refused
 * by the other within 1 s (docs/guide/people.md: "ends their sessions on every process within 1 s").
 */
import { describe, expect, it } from "@effect/vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { type ServerProcess, startServer as startProcess } from "../cli/Process.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { perTest } from "../fixtures/perTest.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { makePerson, PASSWORD, type Person, sessionCookieOf } from "./people.js"

const TIMEOUT = 180_000

const { closers, scoped } = perTest()

const me = (base: string, cookie: string) => request(base, "GET", "/v1/me", { headers: { cookie } })

/**
 * How long after `since` the other process first refused the cookie (401), polling every 25 ms;
 * `Infinity` when it still accepted it after 3 s.
 */
const refusedAfter = async (base: string, cookie: string, since: number): Promise<number> => {
  while (performance.now() - since < 3_000) {
    if ((await me(base, cookie)).status === 401) return performance.now() - since
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return Number.POSITIVE_INFINITY
}

describe("sessions across processes on one PostgreSQL", () => {
  let first: TestServer
  let second: ServerProcess
  const start = async () => {
    const databaseUrl = await scoped(freshPostgresUrl)
    first = await startServer(StorageLayer.fromDatabaseUrl(databaseUrl))
    closers.push(first.close)
    second = await startProcess(["serve"], { DATABASE_URL: databaseUrl })
    closers.push(() => {
      if (second.child.exitCode === null) second.child.kill("SIGKILL")
    })
  }

  it("sign-out, disabling and a password reset on one process are refused by the other within 1 s", { timeout: TIMEOUT }, async () => {
    await start()
    const viewer = (email: string) => first.run(makePerson(email, { projects: [{ projectId: "p1", role: "viewer" }] }))
    const leaving: Person = await viewer("leaving@example.com")
    const disabled: Person = await viewer("disabled@example.com")
    const forgetful: Person = await viewer("forgetful@example.com")
    for (const person of [leaving, disabled, forgetful]) expect((await me(second.baseUrl, person.cookie)).status).toBe(200)

    const times: Record<string, number> = {}
    // Signed out through the first process.
    let since = performance.now()
    expect((await request(first.url, "POST", "/v1/auth/logout", { headers: { cookie: leaving.cookie, origin: first.url } })).status).toBe(204)
    times.signOut = await refusedAfter(second.baseUrl, leaving.cookie, since)
    // Disabled through the first process (a global key: automation).
    since = performance.now()
    expect((await request(first.url, "PATCH", `/v1/users/${disabled.id}`, { key: first.keys.global, body: { disabled: true } })).status).toBe(200)
    times.disable = await refusedAfter(second.baseUrl, disabled.cookie, since)
    // Password reset through the first process.
    since = performance.now()
    expect((await request(first.url, "POST", `/v1/users/${forgetful.id}/reset-password`, { key: first.keys.global })).status).toBe(200)
    times.reset = await refusedAfter(second.baseUrl, forgetful.cookie, since)

    expect(times.signOut).toBeLessThan(1_000)
    expect(times.disable).toBeLessThan(1_000)
    expect(times.reset).toBeLessThan(1_000)
    // And the other way: the management routes of the second refuse them too.
    expect((await request(second.baseUrl, "GET", "/v1/projects/p1/flags", { headers: { cookie: disabled.cookie } })).status).toBe(401)
    console.info(`refused by the other process after (ms): ${JSON.stringify(times)}`)
  })

  it("a session started on one process works on the other; signing out there ends it here", { timeout: TIMEOUT }, async () => {
    await start()
    await first.run(makePerson("roaming@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
    const login = await request(second.baseUrl, "POST", "/v1/auth/login", { body: { email: "roaming@example.com", password: PASSWORD } })
    expect(login.status, login.text).toBe(200)
    const cookie = sessionCookieOf(login)
    expect((await me(first.url, cookie)).status).toBe(200)
    const write = await request(first.url, "POST", "/v1/projects/p1/segments", { headers: { cookie, origin: first.url }, body: { key: "roaming", name: "Roaming", conditions: [] } })
    expect(write.status, write.text).toBe(201)
    const since = performance.now()
    expect((await request(second.baseUrl, "POST", "/v1/auth/logout", { headers: { cookie, origin: second.baseUrl } })).status).toBe(204)
    expect(await refusedAfter(first.url, cookie, since)).toBeLessThan(1_000)
  })
})
