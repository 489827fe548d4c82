/**
 * Exposures the server records for its own evaluation routes, through a real server on SQLite and
 * PostgreSQL: POST /v1/evaluate, GET /v1/flags/{k}/eval and OFREP (single and bulk) record the
 * unit (the rule's `bucketBy` attribute) when the experiment's rule served, and nothing for another
 * rule, a flag nothing measures, a context without the attribute, or once the experiment stopped.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { Ingestion } from "../../src/services/experiments/Ingestion.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const ROLLOUT = { bucketBy: "userId", variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }
const settle = () => new Promise((resolve) => setTimeout(resolve, 200))
const VARIATIONS = [{ key: "on", value: true }, { key: "off", value: false }]

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`exposures recorded by the server's evaluation routes on ${backend}`, () => {
    let t: TestServer
    beforeAll(async () => {
      t = await startServer(freshStorage(backend))
    })
    afterAll(async () => {
      await t?.close()
    })

    const units = async (experimentId: string) => {
      await t.run(Effect.flatMap(Ingestion, (ingestion) => ingestion.flush))
      const rows = await t.run(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.units(experimentId)))
      return rows.map((row) => [row.unit, row.variationKey])
    }

    it("records the experiment rule's units on every evaluation route, and nothing else", { timeout: 60_000 }, async () => {
      const key = t.keys.global
      for (const flagKey of ["measured", "plain"]) {
        expect((await request(t.url, "POST", "/v1/projects/p1/flags", { key, body: { key: flagKey, type: "boolean", variations: VARIATIONS } })).status).toBe(201)
        const targeting = {
          environment: "development",
          enabled: true,
          defaultVariationKey: "off",
          offVariationKey: "off",
          rules: [
            { id: "beta", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "on" },
            { id: "half", conditions: [], rollout: ROLLOUT }
          ]
        }
        expect((await request(t.url, "PUT", `/v1/projects/p1/flags/${flagKey}/targeting`, { key, body: targeting })).status).toBe(200)
      }
      const experiment = {
        key: "measured-exp",
        flagKey: "measured",
        environment: "development",
        ruleId: "half",
        controlVariationKey: "off",
        metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
      }
      expect((await request(t.url, "POST", "/v1/projects/p1/experiments", { key, body: experiment })).status).toBe(201)
      const client = t.keys.client
      const evaluate = (context: unknown) => request(t.url, "POST", "/v1/evaluate", { key: client, body: { environment: "development", context } })
      // A draft measures nothing.
      await evaluate({ key: "k0", attributes: { userId: "draft-unit" } })
      const started = await request(t.url, "POST", "/v1/projects/p1/experiments/measured-exp/start", { key })
      expect(started.status, started.text).toBe(200)
      const id = (started.body as { id: string }).id
      // The lane reads the project's running experiments again once the start is announced.
      await settle()

      const served: Record<string, string> = {}
      const all = await evaluate({ key: "k1", attributes: { userId: "u1" } })
      served.u1 = (all.body as { flags: Record<string, { variationKey: string }> }).flags.measured.variationKey
      const attributes = encodeURIComponent(JSON.stringify({ userId: "u2" }))
      const one = await request(t.url, "GET", `/v1/flags/measured/eval?environment=development&key=k2&attributes=${attributes}`, { key: client })
      served.u2 = (one.body as { variationKey: string }).variationKey
      const ofrep = { "flagport-environment": "development" }
      const single = await request(t.url, "POST", "/ofrep/v1/evaluate/flags/measured", { key: client, headers: ofrep, body: { context: { targetingKey: "k3", userId: "u3" } } })
      served.u3 = (single.body as { variant: string }).variant
      const bulk = await request(t.url, "POST", "/ofrep/v1/evaluate/flags", { key: client, headers: ofrep, body: { context: { targetingKey: "k4", userId: 4 } } })
      served["4"] = (bulk.body as { flags: Array<{ key: string; variant: string }> }).flags.find((f) => f.key === "measured")!.variant
      // Another rule (the beta list), a context without the attribute: not the experiment's units.
      await evaluate({ key: "k5", attributes: { userId: "u5", beta: true } })
      await evaluate({ key: "k6" })

      expect(await units(id)).toEqual(Object.entries(served).sort(([a], [b]) => (a < b ? -1 : 1)))

      // Stopped: nothing more is recorded.
      expect((await request(t.url, "POST", "/v1/projects/p1/experiments/measured-exp/stop", { key })).status).toBe(200)
      await settle()
      await evaluate({ key: "k7", attributes: { userId: "after-stop" } })
      expect((await units(id)).map(([unit]) => unit)).not.toContain("after-stop")
    })
  })
}
