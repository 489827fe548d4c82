/**
 * POST /v1/exposures through a real server: a client key's exposures of a running experiment are
 * kept in their units' rows, the rest dropped; a resent batch counts once; an item out of bounds is
 * a 400 naming it; a bound key may not name another environment.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { request, startServer, type TestServer } from "./fixtures.js"

let t: TestServer
beforeAll(async () => {
  t = await startServer()
})
afterAll(async () => {
  await t?.close()
})

const ROLLOUT = { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }

describe("POST /v1/exposures", () => {
  it("keeps a running experiment's exposures per unit, counts a resent batch once, refuses bad items", async () => {
    const key = t.keys.global
    const made = await request(t.url, "POST", "/v1/projects/p1/flags", { key, body: { key: "exposed", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] } })
    expect(made.status, made.text).toBe(201)
    const targeting = { environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
    expect((await request(t.url, "PUT", "/v1/projects/p1/flags/exposed/targeting", { key, body: targeting })).status).toBe(200)
    const experiment = { key: "exposed-exp", flagKey: "exposed", environment: "development", ruleId: "half", controlVariationKey: "off", metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }] }
    expect((await request(t.url, "POST", "/v1/projects/p1/experiments", { key, body: experiment })).status).toBe(201)
    const started = await request(t.url, "POST", "/v1/projects/p1/experiments/exposed-exp/start", { key })
    expect(started.status, started.text).toBe(200)

    const now = new Date(Date.now() + 5).toISOString()
    const item = (unit: string, variationKey = "on") => ({ flagKey: "exposed", variationKey, ruleId: "half", unit, timestamp: now })
    const body = { environment: "development", batchId: "batch-1", exposures: [item("u1"), item("u2", "off"), { ...item("u3"), ruleId: "other" }] }
    const first = await request(t.url, "POST", "/v1/exposures", { key: t.keys.client, body })
    expect(first.status, first.text).toBe(202)
    expect(first.body).toEqual({ accepted: 2, dropped: 1, duplicate: false })
    const again = await request(t.url, "POST", "/v1/exposures", { key: t.keys.client, body })
    expect(again.body).toEqual({ accepted: 2, dropped: 1, duplicate: true })

    const old = await request(t.url, "POST", "/v1/exposures", {
      key: t.keys.client,
      body: { environment: "development", exposures: [item("u4"), { ...item("u4"), timestamp: "2020-01-01T00:00:00Z" }] }
    })
    expect(old.status).toBe(400)
    expect(old.body).toEqual({ error: { code: "invalid_request", message: "The request is invalid.", details: [{ path: "exposures[1].timestamp", message: "must be within the last 24 hours" }] } })
    const long = await request(t.url, "POST", "/v1/exposures", { key: t.keys.client, body: { environment: "development", exposures: [item("x".repeat(257))] } })
    expect(long.status).toBe(400)
    expect(JSON.stringify(long.body)).toContain("must be at most 256 characters")
    const other = await request(t.url, "POST", "/v1/exposures", { key: t.keys.boundClient, body: { environment: "production", exposures: [item("u5")] } })
    expect(other.status).toBe(403)

    const id = (started.body as { id: string }).id
    const units = await t.run(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.units(id)))
    expect(units.map((u) => [u.unit, u.variationKey, u.variationsSeen])).toEqual([["u1", "on", 1], ["u2", "off", 1]])
  })
})
