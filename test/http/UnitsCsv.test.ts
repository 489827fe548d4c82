/**
 * GET /v1/projects/{p}/experiments/{key}/units.csv through a real server on SQLite and PostgreSQL:
 * every exposed unit once, in unit order, with each metric's value and covariate as the metric
 * rows hold them, over several pages; and the export reads its pages only as the stream is
 * consumed (a page in memory at a time, however many units).
 */
import { Chunk, Effect, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { Ingestion } from "../../src/services/experiments/Ingestion.js"
import * as UnitExport from "../../src/services/experiments/UnitExport.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const ROLLOUT = { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }
const METRICS = [
  { key: "bought", event: "purchase", kind: "conversion", goal: "increase", role: "primary" },
  { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" }
]
const UNITS = 2_500

describe.each(["sqlite", "postgres"] as const)("units.csv on %s", (backend) => {
  let t: TestServer
  let experimentId = ""
  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
    const key = t.keys.global
    await request(t.url, "POST", "/v1/projects/p1/flags", { key, body: { key: "exported", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] } })
    const targeting = { environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
    await request(t.url, "PUT", "/v1/projects/p1/flags/exported/targeting", { key, body: targeting })
    const experiment = { key: "exported-exp", flagKey: "exported", environment: "development", ruleId: "half", controlVariationKey: "off", metrics: METRICS }
    expect((await request(t.url, "POST", "/v1/projects/p1/experiments", { key, body: experiment })).status).toBe(201)
    const started = await request(t.url, "POST", "/v1/projects/p1/experiments/exported-exp/start", { key })
    experimentId = (started.body as { id: string }).id
    // Units u0000..u2499 exposed at T; unit i bought i % 3 times (values 2.5) after, once before when i % 5 = 0.
    const at = Date.parse((started.body as { startedAt: string }).startedAt) + 1000
    const units = Array.from({ length: UNITS }, (_, i) => `u${String(i).padStart(4, "0")}`)
    const event = (unit: string, offset: number) => (metricKey: string) => ({ experimentId, metricKey, unit, at: at + offset, value: 2.5, windowMs: null, preWindowMs: 7 * 86_400_000 })
    await t.run(Effect.flatMap(Ingestion, (ingestion) =>
      Effect.forEach(Array.from({ length: UNITS / 500 }, (_, page) => units.slice(page * 500, page * 500 + 500)), (chunk) =>
        ingestion.commit({
          exposures: chunk.map((unit, i) => ({ experimentId, unit, variationKey: i % 2 === 0 ? "on" : "off", at })),
          events: chunk.flatMap((unit) => {
            const i = Number(unit.slice(1))
            const after = Array.from({ length: i % 3 }, (_, n) => ["bought", "revenue"].map(event(unit, 1000 + n)))
            const before = i % 5 === 0 ? [["bought", "revenue"].map(event(unit, -1000))] : []
            return [...after, ...before].flat()
          })
        }))))
  }, 120_000)
  afterAll(async () => {
    await t?.close()
  })

  it("exports every unit once, in order, with each metric's value and covariate", async () => {
    const reply = await fetch(`${t.url}/v1/projects/p1/experiments/exported-exp/units.csv`, { headers: { authorization: `Bearer ${t.keys.global}` } })
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/csv")
    const lines = (await reply.text()).split("\r\n")
    expect(lines[0]).toBe("unit,first_exposure_at,variation,variations_seen,bought,bought_covariate,revenue,revenue_covariate")
    expect(lines.at(-1)).toBe("")
    const rows = lines.slice(1, -1)
    expect(rows).toHaveLength(UNITS)
    rows.forEach((line, i) => {
      const [unit, , variation, seen, bought, boughtPre, revenue, revenuePre] = line.split(",")
      expect([unit, variation, seen]).toEqual([`u${String(i).padStart(4, "0")}`, i % 500 % 2 === 0 ? "on" : "off", "1"])
      expect([bought, boughtPre, revenue, revenuePre].map(Number)).toEqual([i % 3 > 0 ? 1 : 0, i % 5 === 0 ? 1 : 0, 2.5 * (i % 3), i % 5 === 0 ? 2.5 : 0])
    })
    const missing = await request(t.url, "GET", "/v1/projects/p1/experiments/nothing/units.csv", { key: t.keys.global })
    expect(missing.status).toBe(404)
  })

  it("reads a page only when the stream gets to it", async () => {
    const pages = await t.run(Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      let read = 0
      // The real repository, counting its page reads.
      const counting = { ...repo, unitPage: (...args: Parameters<typeof repo.unitPage>) => Effect.zipRight(Effect.sync(() => read++), repo.unitPage(...args)) }
      const exporter = yield* UnitExport.make.pipe(Effect.provideService(ExperimentUnitRepository, counting))
      const csv = yield* exporter.csv("p1", "exported-exp")
      const afterOpening = read
      const first = yield* Stream.runCollect(Stream.take(csv, 10))
      const afterTen = read
      const all = yield* Stream.runCollect(csv)
      return { afterOpening, afterTen, lines: Chunk.size(first), total: Chunk.size(all), read }
    }))
    expect(pages).toMatchObject({ afterOpening: 0, afterTen: 1, lines: 10, total: UNITS + 1 })
    // Two more reads than the first: 2,500 units at 1,000 a page, the last page short.
    expect(pages.read).toBe(1 + Math.ceil(UNITS / UnitExport.PAGE_UNITS))
  })
})
