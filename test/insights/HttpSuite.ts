/**
 * Insights end to end, through the standalone server over HTTP on one SQL backend: evaluations
 * of POST /v1/evaluate, GET /v1/flags/{k}/eval and the two OFREP routes (sent concurrently) and an SDK report add up
 * exactly in the stored hourly series once the server shuts down (its last flush), as the series
 * endpoint shows them from a second server on the same database; `lastEvaluatedAt` and
 * `status=stale` follow (a flag evaluated only as another's prerequisite counts as evaluated).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { freshStorage } from "../fixtures/databases.js"
import { oldFlag } from "../fixtures/OldFlag.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

export const insightsSuite = (backend: "sqlite" | "postgres"): void => {
  describe(`insights over HTTP (${backend})`, () => {
    let first: TestServer
    let second: TestServer
    let storage: Layer.Layer<StorageLayer.Storage>
    let clientKey = ""
    const admin = (t: TestServer) => t.keys.global
    const call = (t: TestServer, method: string, path: string, body?: unknown, key = admin(t)) =>
      request(t.url, method, path, { key, ...(body === undefined ? {} : { body }) })

    beforeAll(async () => {
      first = await startServer(freshStorage(backend))
      storage = Layer.succeedContext(await first.run(Effect.context<StorageLayer.Storage>()))
      await first.run(Effect.flatMap(FlagRepository, (flags) => Effect.zipRight(flags.insert("p1", oldFlag("old-unused")), Effect.zipRight(flags.insert("p1", oldFlag("old-gate")), flags.insert("p1", oldFlag("old-used", ["old-gate"]))))))
      expect((await call(first, "POST", "/v1/projects", { id: "ins", name: "Insights" })).status).toBe(201)
      expect((await call(first, "POST", "/v1/projects/ins/environments", { key: "development", name: "Development" })).status).toBe(201)
      expect((await call(first, "POST", "/v1/projects/ins/flags", {
        key: "checkout",
        type: "boolean",
        variations: [{ key: "on", value: true }, { key: "off", value: false }]
      })).status).toBe(201)
      expect((await call(first, "PUT", "/v1/projects/ins/flags/checkout/targeting", {
        environment: "development",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules: [{ conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }]
      })).status).toBe(200)
      const key = await call(first, "POST", "/v1/projects/ins/keys", { type: "client", name: "sdk" })
      clientKey = (key.body as { key: string }).key
    }, 60_000)
    afterAll(async () => {
      await second?.close()
      await first?.closeStorage()
    })

    const ofrep = (path: string, body: unknown) =>
      request(first.url, "POST", path, { key: clientKey, headers: { "flagport-environment": "development" }, body })

    it("counts every evaluation of both lanes and every SDK count, exactly, after the shutdown flush", async () => {
      const beta = { key: "u", attributes: { plan: "beta" } }
      const evaluations = [
        ...Array.from({ length: 30 }, () => call(first, "POST", "/v1/evaluate", { environment: "development", context: beta }, clientKey)),
        ...Array.from({ length: 20 }, (_, i) => call(first, "GET", `/v1/flags/checkout/eval?environment=development&key=user-${i}`, undefined, clientKey)),
        call(first, "GET", "/v1/flags/old-used/eval?environment=production&key=u", undefined, first.keys.client),
        ...Array.from({ length: 4 }, () => ofrep("/ofrep/v1/evaluate/flags/checkout", { context: { targetingKey: "u", plan: "beta" } })),
        ...Array.from({ length: 3 }, () => ofrep("/ofrep/v1/evaluate/flags", { context: { targetingKey: "u" } }))
      ]
      for (const reply of await Promise.all(evaluations)) expect(reply.status, reply.text).toBe(200)
      // Failed evaluations count nothing.
      expect((await call(first, "GET", "/v1/flags/nope/eval?environment=development&key=u", undefined, clientKey)).status).toBe(404)
      expect((await call(first, "POST", "/v1/evaluate", { environment: "nowhere", context: beta }, clientKey)).status).toBe(404)
      const report = await call(first, "POST", "/v1/insights", {
        environment: "development",
        from: new Date(Date.now() - 60_000).toISOString(),
        to: new Date().toISOString(),
        counts: [
          { flagKey: "checkout", variationKey: "on", count: 1000 },
          { flagKey: "checkout", variationKey: "off", count: 7 },
          { flagKey: "deleted-meanwhile", variationKey: "on", count: 3 }
        ]
      }, clientKey)
      expect(report.status, report.text).toBe(202)
      expect(report.body).toEqual({ accepted: 2, ignored: 1 })

      await first.server.close()
      second = await startServer(storage, { seeded: first.keys })
      const series = await call(second, "GET", "/v1/projects/ins/flags/checkout/insights?environment=development")
      expect(series.status, series.text).toBe(200)
      const body = series.body as { from: string; to: string; variations: Array<{ variationKey: string; total: number; points: Array<{ hour: string; count: number }> }> }
      // on: 30 POST /v1/evaluate + 4 OFREP single + 1000 reported; off: 20 single-flag + 3 OFREP bulk + 7 reported.
      expect(body.variations.map((v) => [v.variationKey, v.total])).toEqual([["on", 1034], ["off", 30]])
      expect(body.variations[0]!.points).toHaveLength(24)
      expect(body.to).toBe(new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString())
    })

    it("shows lastEvaluatedAt per environment and filters stale flags", async () => {
      const flag = (await call(second, "GET", "/v1/projects/ins/flags/checkout")).body as { stale: boolean; configs: Array<{ environmentKey: string; lastEvaluatedAt: string | null }> }
      expect(flag.stale).toBe(false)
      const last = flag.configs[0]!.lastEvaluatedAt!
      expect(Date.now() - Date.parse(last)).toBeLessThan(120_000)
      const listed = (await call(second, "GET", "/v1/projects/p1/flags")).body as { data: Array<{ key: string; stale: boolean; configs: Array<{ lastEvaluatedAt: string | null }> }> }
      // old-gate is only ever evaluated as old-used's prerequisite (in production): in use, not stale.
      expect(listed.data.map((f) => [f.key, f.stale, f.configs.map((c) => c.lastEvaluatedAt !== null)])).toEqual([
        ["old-unused", true, [false, false]],
        ["old-gate", false, [false, true]],
        ["old-used", false, [false, true]]
      ])
      const gate = (await call(second, "GET", "/v1/projects/p1/flags/old-gate")).body as { stale: boolean }
      expect(gate.stale).toBe(false)
      const stale = await call(second, "GET", "/v1/projects/p1/flags?status=stale")
      expect(stale.status, stale.text).toBe(200)
      expect((stale.body as { data: Array<{ key: string }> }).data.map((f) => f.key)).toEqual(["old-unused"])
    })
  })
}
