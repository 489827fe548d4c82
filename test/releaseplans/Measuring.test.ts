/**
 * A release plan is measured while it runs (its guardrails need its rule's exposures): `GET
 * /v1/config` names its rule from its start, no longer once it is paused, again once resumed, and
 * no longer once it completes; each change is a new configuration (the project's revision moves
 * on, so snapshots, streams and the server's own exposure recording follow at once, as for an
 * experiment's start and stop). Through a real server with its scheduler, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

const PLANS = "/v1/projects/p1/flags/banner/release-plans"
const GUARDRAILS = [{ key: "errors", event: "error", kind: "conversion", goal: "decrease", role: "guardrail" }]

/** Polls `read` until `done` holds (the scheduler runs every second), at most `ms`. */
const until = async <A>(read: () => Promise<A>, done: (a: A) => boolean, ms = 15_000): Promise<A> => {
  const end = Date.now() + ms
  for (;;) {
    const value = await read()
    if (done(value) || Date.now() > end) return value
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe.each(["sqlite", "postgres"] as const)("a release plan's measuring follows its status (%s)", (backend) => {
  let t: TestServer
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const measured = async () => {
    const reply = await request(t.url, "GET", "/v1/config?environment=production", { key: t.keys.client })
    expect(reply.status).toBe(200)
    return { experiments: (reply.body as { experiments?: unknown }).experiments ?? [], etag: reply.headers.get("etag") }
  }

  beforeAll(async () => {
    t = await startServer(freshStorage(backend), { schedules: true })
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "banner", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    const targeting = { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "all", conditions: [], variationKey: "off" }] }
    expect((await admin("PUT", "/v1/projects/p1/flags/banner/targeting", targeting)).status).toBe(200)
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("named from start, not while paused, again once resumed, not once completed", async () => {
    const rule = [{ flagKey: "banner", ruleId: "all" }]
    const created = await admin("POST", PLANS, { environment: "production", ruleId: "all", variationKey: "on", steps: [{ weight: 10_000, holdMinutes: 0.1 }], guardrails: GUARDRAILS })
    expect(created.status, created.text).toBe(201)
    const id = (created.body as { id: string }).id
    expect((await measured()).experiments).toEqual([])

    expect((await admin("POST", `${PLANS}/${id}/start`)).status).toBe(200)
    const running = await measured()
    expect(running.experiments).toEqual(rule)
    // Its first step applied (a targeting write), the hold begins: pausing now is the plan's own write.
    await until(() => admin("GET", `${PLANS}/${id}`).then((r) => (r.body as { currentStep: number | null }).currentStep), (step) => step === 0)

    expect((await admin("POST", `${PLANS}/${id}/pause`)).status).toBe(200)
    const paused = await measured()
    expect(paused.experiments).toEqual([])
    expect(paused.etag).not.toBe(running.etag)

    expect((await admin("POST", `${PLANS}/${id}/resume`)).status).toBe(200)
    expect((await measured()).experiments).toEqual(rule)

    // The last step's hold passes (the scheduler completes it): no longer measured.
    const done = await until(() => admin("GET", `${PLANS}/${id}`).then((r) => (r.body as { status: string }).status), (status) => status === "completed")
    expect(done).toBe("completed")
    expect((await measured()).experiments).toEqual([])
  }, 60_000)
})
