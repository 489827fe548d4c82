/**
 * Revoking a key cancels its pending schedules (issue 26), through a real server with its
 * scheduler on SQLite and PostgreSQL: the schedule is `cancelled` at once with an audit entry by
 * the revoker, and never applies. Also `GET /v1/projects/{p}/schedules` (every pending schedule of
 * the project) and a bound key refused cancelling another environment's schedule.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Messages } from "../../src/domain/auth/Policy.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

interface Schedule { id: string; flagKey: string; environment: string; status: string; at: string }
const targeting = { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }

describe.each(["sqlite", "postgres"] as const)("schedules and keys (%s)", (backend) => {
  let t: TestServer
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const schedule = async (key: string, flag: string, environment: string, at: string) => {
    const made = await request(t.url, "POST", `/v1/projects/p1/flags/${flag}/schedules`, { key, body: { environment, at, targeting } })
    expect(made.status, made.text).toBe(201)
    return made.body as Schedule
  }
  const pending = async (query = "") => {
    const reply = await admin("GET", `/v1/projects/p1/schedules${query}`)
    expect(reply.status, reply.text).toBe(200)
    return (reply.body as { data: Array<Schedule> }).data
  }
  beforeAll(async () => {
    t = await startServer(freshStorage(backend), { schedules: true })
    for (const key of ["f", "g", "h"]) {
      expect((await admin("POST", "/v1/projects/p1/flags", { key, type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
    }
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("revoking a key cancels its pending schedules with an audit entry, and they never apply", async () => {
    const leaving = (await admin("POST", "/v1/projects/p1/keys", { type: "server", name: "leaving" })).body as { id: string; key: string }
    const staying = (await admin("POST", "/v1/projects/p1/keys", { type: "server", name: "staying" })).body as { id: string; key: string }
    const soon = await schedule(leaving.key, "f", "production", new Date(Date.now() + 2_000).toISOString())
    const kept = await schedule(staying.key, "f", "development", "2999-01-01T09:00:00Z")

    const revoked = await request(t.url, "DELETE", `/v1/projects/p1/keys/${leaving.id}`, { key: staying.key })
    expect(revoked.status, revoked.text).toBe(204)

    const left = await pending()
    expect(left.map((s) => s.id)).toContain(kept.id)
    expect(left.map((s) => s.id)).not.toContain(soon.id)
    const audit = await admin("GET", `/v1/projects/p1/audit?resourceType=schedule&resourceKey=${soon.id}`)
    const entries = (audit.body as { data: Array<{ action: string; actor: { type: string; keyId?: string }; before: { status: string }; after: { status: string } }> }).data
    expect(entries.map((e) => e.action)).toEqual(["schedule.cancelled", "schedule.created"])
    expect(entries[0]).toMatchObject({ actor: { type: "key", keyId: staying.id }, before: { status: "pending" }, after: { status: "cancelled" } })

    // Past its time (the scheduler looks every 2 s at most): still cancelled, production unchanged.
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    const listed = ((await admin("GET", "/v1/projects/p1/flags/f/schedules")).body as { data: Array<Schedule> }).data
    expect(listed.find((s) => s.id === soon.id)?.status).toBe("cancelled")
    expect(listed.find((s) => s.id === kept.id)?.status).toBe("pending")
    const flag = (await admin("GET", "/v1/projects/p1/flags/f")).body as { configs: Array<{ environmentKey: string; enabled: boolean }> }
    expect(flag.configs.find((c) => c.environmentKey === "production")?.enabled).toBe(false)
  }, 30_000)

  it("lists every pending schedule of the project, earliest first, optionally of one environment", async () => {
    const early = await schedule(t.keys.global, "g", "production", "2998-01-01T09:00:00Z")
    const late = await schedule(t.keys.global, "h", "development", "2998-06-01T09:00:00Z")
    const cancelled = await schedule(t.keys.global, "h", "production", "2998-03-01T09:00:00Z")
    expect((await admin("DELETE", `/v1/projects/p1/flags/h/schedules/${cancelled.id}`)).status).toBe(204)

    const all = await pending()
    expect(all.every((s) => s.status === "pending")).toBe(true)
    expect(all.map((s) => s.id)).not.toContain(cancelled.id)
    const ids = all.map((s) => s.id)
    expect(ids.indexOf(early.id)).toBeGreaterThanOrEqual(0)
    expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(late.id))
    const production = await pending("?environment=production")
    expect(production.map((s) => s.id)).toContain(early.id)
    expect(production.every((s) => s.environment === "production")).toBe(true)
    expect((await admin("GET", "/v1/projects/nope/schedules")).status).toBe(404)
    expect((await request(t.url, "GET", "/v1/projects/p1/schedules", { key: t.keys.otherScoped })).status).toBe(403)
  })

  it("a bound key cancels only its own environment's schedules", async () => {
    const elsewhere = await schedule(t.keys.global, "g", "development", "2997-01-01T09:00:00Z")
    const own = await schedule(t.keys.global, "g", "production", "2997-01-01T09:00:00Z")
    const refused = await request(t.url, "DELETE", `/v1/projects/p1/flags/g/schedules/${elsewhere.id}`, { key: t.keys.boundServerOther })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ error: { code: "forbidden", message: Messages.environmentMismatch } })
    expect((await pending()).map((s) => s.id)).toContain(elsewhere.id)
    const allowed = await request(t.url, "DELETE", `/v1/projects/p1/flags/g/schedules/${own.id}`, { key: t.keys.boundServerOther })
    expect(allowed.status, allowed.text).toBe(204)
  })
})
