/**
 * Change requests applied exactly once across processes: two `flagport serve` processes (each with
 * its scheduler) on one PostgreSQL. The same approved request applied through both at the same
 * moment is applied by one (the other answers 409), and a scheduled one is applied by one of the
 * two schedulers: each flag's version grows by exactly one, with one audit entry naming the request.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { keyLines, type ServerProcess, startServer } from "../cli/Process.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { request } from "../http/fixtures.js"
import { asPerson, sessionCookieOf } from "../http/people.js"

const TIMEOUT = 180_000
const ROUNDS = 4

let scope = Effect.runSync(Scope.make())
let running: Array<ServerProcess> = []
afterEach(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL")
  running = []
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

describe("change requests with two server processes on one PostgreSQL", () => {
  it("applies each request exactly once, by hand through both processes and by both schedulers", { timeout: TIMEOUT }, async () => {
    const databaseUrl = await Effect.runPromise(Scope.extend(freshPostgresUrl, scope))
    const first = await startServer(["serve", "--init"], { DATABASE_URL: databaseUrl })
    running.push(first)
    const second = await startServer(["serve"], { DATABASE_URL: databaseUrl })
    running.push(second)
    const { SERVER_KEY } = keyLines(first.output().stdout)
    const call = (base: string, key: string, method: string, path: string, body?: unknown) =>
      request(base, method, path, { key, ...(body === undefined ? {} : { body }) })
    // A person approves (approvals are people's; nobody approves their own request): invited
    // with the key, signed in through the setup link, their session shared by both processes.
    const invited = await call(first.baseUrl, SERVER_KEY!, "POST", "/v1/users", { email: "approver@example.com", admin: true })
    expect(invited.status, invited.text).toBe(201)
    const token = new URL((invited.body as { setupUrl: string }).setupUrl).hash.replace(/^#token=/, "")
    const setup = await request(first.baseUrl, "POST", "/v1/auth/setup", { body: { token, password: "correct horse battery staple" } })
    expect(setup.status, setup.text).toBe(200)
    const approverCookie = sessionCookieOf(setup)
    const CRS = "/v1/projects/default/change-requests"
    const on = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }

    const approvedRequest = async (flagKey: string, applyAt?: string) => {
      const flag = await call(first.baseUrl, SERVER_KEY!, "POST", "/v1/projects/default/flags", { key: flagKey, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      expect(flag.status, flag.text).toBe(201)
      const opened = await call(second.baseUrl, SERVER_KEY!, "POST", CRS, {
        title: `${flagKey} on`,
        environment: "production",
        ...(applyAt === undefined ? {} : { applyAt }),
        changes: [{ flagKey, targeting: on }]
      })
      expect(opened.status, opened.text).toBe(201)
      const id = (opened.body as { id: string }).id
      const approved = await asPerson(first.baseUrl, approverCookie, "POST", `${CRS}/${id}/approve`, {})
      expect(approved.status, approved.text).toBe(200)
      return id
    }
    const checkOnce = async (flagKey: string, id: string) => {
      const flag = (await call(second.baseUrl, SERVER_KEY!, "GET", `/v1/projects/default/flags/${flagKey}`)).body as { version: number }
      expect(flag.version, flagKey).toBe(2)
      const audit = (await call(first.baseUrl, SERVER_KEY!, "GET", `/v1/projects/default/audit?resourceType=flag&resourceKey=${flagKey}`)).body as { data: Array<{ changeRequestId?: string }> }
      expect(audit.data.filter((entry) => entry.changeRequestId === id), flagKey).toHaveLength(1)
    }

    for (let round = 0; round < ROUNDS; round++) {
      const id = await approvedRequest(`by-hand-${round}`)
      const replies = await Promise.all([
        call(first.baseUrl, SERVER_KEY!, "POST", `${CRS}/${id}/apply`),
        asPerson(second.baseUrl, approverCookie, "POST", `${CRS}/${id}/apply`)
      ])
      expect(replies.map((r) => r.status).sort(), replies.map((r) => r.text).join("\n")).toEqual([200, 409])
      await checkOnce(`by-hand-${round}`, id)
    }

    const at = new Date(Date.now() + 3_000).toISOString()
    const scheduled = await Promise.all(Array.from({ length: ROUNDS }, (_, i) => approvedRequest(`scheduled-${i}`, at)))
    const statuses = async () =>
      Promise.all(scheduled.map(async (id) => ((await call(first.baseUrl, SERVER_KEY!, "GET", `${CRS}/${id}`)).body as { status: string }).status))
    const deadline = Date.parse(at) + 15_000
    while ((await statuses()).some((status) => status !== "applied")) {
      expect(Date.now()).toBeLessThan(deadline)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    // Give a second (wrong) application time to land before looking.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    for (const [i, id] of scheduled.entries()) await checkOnce(`scheduled-${i}`, id)
  })
})
