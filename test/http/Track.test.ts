/**
 * POST /v1/track through a real server on SQLite and PostgreSQL: a client key's events count in
 * their units' metric rows for a running experiment's metrics (an event sent before its unit's
 * exposure included), events no metric names are dropped, a resent batch counts once (an exposure
 * batch with the same id is another batch), an item out of bounds is a 400 naming it and keeps
 * nothing, and another project's key touches nothing here.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const ROLLOUT = { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }
const METRICS = [
  { key: "bought", event: "purchase", kind: "conversion", goal: "increase", role: "primary", windowHours: 1 },
  { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" }
]

describe.each(["sqlite", "postgres"] as const)("POST /v1/track on %s", (backend) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
  })
  afterAll(async () => {
    await t?.close()
  })

  const startExperiment = async (project: string) => {
    const key = t.keys.global
    const made = await request(t.url, "POST", `/v1/projects/${project}/flags`, { key, body: { key: "checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] } })
    expect(made.status, made.text).toBe(201)
    const targeting = { environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
    expect((await request(t.url, "PUT", `/v1/projects/${project}/flags/checkout/targeting`, { key, body: targeting })).status).toBe(200)
    const experiment = { key: "checkout-exp", flagKey: "checkout", environment: "development", ruleId: "half", controlVariationKey: "off", metrics: METRICS }
    expect((await request(t.url, "POST", `/v1/projects/${project}/experiments`, { key, body: experiment })).status).toBe(201)
    const started = await request(t.url, "POST", `/v1/projects/${project}/experiments/checkout-exp/start`, { key })
    expect(started.status, started.text).toBe(200)
    return (started.body as { id: string }).id
  }

  it("counts a running experiment's events per unit and metric, whatever arrives first; drops the rest", async () => {
    const id = await startExperiment("p1")
    const base = Date.now() + 10
    const at = (offsetMs: number) => new Date(base + offsetMs).toISOString()
    const track = (body: unknown, key = t.keys.client) => request(t.url, "POST", "/v1/track", { key, body })

    // u1 buys before the SDK's exposures arrive (a batch race), then again later.
    const early = await track({ environment: "development", batchId: "events-1", events: [{ event: "purchase", unit: "u1", value: 30, timestamp: at(1000) }, { event: "page-view", unit: "u1" }] })
    expect(early.status, early.text).toBe(202)
    expect(early.body).toEqual({ accepted: 1, dropped: 1, duplicate: false })
    const exposure = (unit: string, variationKey: string) => ({ flagKey: "checkout", variationKey, ruleId: "half", unit, timestamp: at(0) })
    // The same batch id on the other route is another batch: neither swallows the other.
    const exposed = await request(t.url, "POST", "/v1/exposures", { key: t.keys.client, body: { environment: "development", batchId: "events-1", exposures: [exposure("u1", "on"), exposure("u2", "off")] } })
    expect(exposed.status, exposed.text).toBe(202)
    expect(exposed.body).toEqual({ accepted: 2, dropped: 0, duplicate: false })
    expect((await track({ environment: "development", events: [{ event: "purchase", unit: "u1", value: 12.5, timestamp: at(2000) }, { event: "purchase", unit: "u2", timestamp: at(3000) }] })).status).toBe(202)
    // Resent: acknowledged, counted once.
    const again = await track({ environment: "development", batchId: "events-1", events: [{ event: "purchase", unit: "u1", value: 30, timestamp: at(1000) }, { event: "page-view", unit: "u1" }] })
    expect(again.body).toEqual({ accepted: 1, dropped: 1, duplicate: true })

    // Another project's experiment with the same flag, event and units: its key changes nothing here.
    await startExperiment("p2")
    const elsewhere = await request(t.url, "POST", "/v1/track", { key: t.keys.global, body: { projectId: "p2", environment: "development", events: [{ event: "purchase", unit: "u1", value: 1_000_000 }] } })
    expect(elsewhere.status, elsewhere.text).toBe(202)

    const rows = await t.run(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.metricRows(id)))
    expect(rows.map((r) => [r.metricKey, r.unit, r.variationKey, r.postSum, r.postCount])).toEqual([
      ["bought", "u1", "on", 42.5, 2],
      ["bought", "u2", "off", 1, 1],
      ["revenue", "u1", "on", 42.5, 2],
      ["revenue", "u2", "off", 1, 1]
    ])
  })

  it("refuses an item out of bounds with a 400 naming it, and keeps nothing of that request", async () => {
    const track = (events: ReadonlyArray<unknown>, extra: Record<string, unknown> = {}) =>
      request(t.url, "POST", "/v1/track", { key: t.keys.client, body: { environment: "development", events, ...extra } })
    const ok = { event: "purchase", unit: "u9" }
    const old = await track([ok, { ...ok, timestamp: "2020-01-01T00:00:00Z" }])
    expect(old.status).toBe(400)
    expect(old.body).toEqual({ error: { code: "invalid_request", message: "The request is invalid.", details: [{ path: "events[1].timestamp", message: "must be within the last 24 hours" }] } })
    const ahead = await track([{ ...ok, timestamp: new Date(Date.now() + 10 * 60_000).toISOString() }])
    expect(JSON.stringify(ahead.body)).toContain("must not be more than 300 seconds ahead of the server's clock")
    const huge = await track([ok, { ...ok, value: 1e13 }])
    expect(huge.status).toBe(400)
    expect(JSON.stringify(huge.body)).toContain("must be a finite number from -1,000,000,000,000 to 1,000,000,000,000")
    const long = await track([{ ...ok, unit: "x".repeat(257) }])
    expect(JSON.stringify(long.body)).toContain("must be at most 256 characters")
    expect((await track([{ ...ok, unit: "" }])).status).toBe(400)
    expect(JSON.stringify((await track([ok], { batchId: "b".repeat(65) })).body)).toContain("must be at most 64 characters")
    const many = await track(Array.from({ length: 1001 }, () => ok))
    expect(many.status).toBe(400)
    expect(JSON.stringify(many.body)).toContain("must have at most 1,000 items")
    expect((await request(t.url, "POST", "/v1/track", { key: t.keys.boundClient, body: { environment: "production", events: [ok] } })).status).toBe(403)
    expect((await request(t.url, "POST", "/v1/track", { body: { environment: "development", events: [ok] } })).status).toBe(401)
  })
})
