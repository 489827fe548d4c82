/**
 * A schedule outlives no key, through a real server with its scheduler on SQLite and PostgreSQL:
 * a project server key schedules a change, the key is revoked behind the use case's back (the
 * revocation through the API or the CLI cancels the key's schedules, RevokedKeySchedules.test.ts;
 * this is the scheduler's own check, for a schedule that escaped that), and when the time comes
 * the schedule is `failed` with the reason, the targeting unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

describe.each(["sqlite", "postgres"] as const)("schedules of a revoked key (%s)", (backend) => {
  let t: TestServer
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  beforeAll(async () => {
    t = await startServer(freshStorage(backend), { schedules: true })
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "f", type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] })).status).toBe(201)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("is failed, never applied, when its time comes", async () => {
    const made = (await admin("POST", "/v1/projects/p1/keys", { type: "server", name: "leaving" })).body as { id: string; key: string }
    const at = new Date(Date.now() + 2_000).toISOString()
    const scheduled = await request(t.url, "POST", "/v1/projects/p1/flags/f/schedules", {
      key: made.key,
      body: { environment: "production", at, targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }
    })
    expect(scheduled.status, scheduled.text).toBe(201)
    await t.run(Effect.flatMap(ApiKeyRepository, (keys) => keys.revoke(made.id, new Date().toISOString())))
    const deadline = Date.now() + 15_000
    let schedule: { status: string; reason: string | null } | undefined
    while (Date.now() < deadline) {
      schedule = ((await admin("GET", "/v1/projects/p1/flags/f/schedules")).body as { data: Array<{ status: string; reason: string | null }> }).data[0]
      if (schedule?.status !== "pending") break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(schedule?.status).toBe("failed")
    expect(schedule?.reason).toContain("was revoked")
    const flag = (await admin("GET", "/v1/projects/p1/flags/f")).body as { configs: Array<{ environmentKey: string; enabled: boolean }> }
    expect(flag.configs.find((c) => c.environmentKey === "production")?.enabled).toBe(false)
  }, 30_000)
})
