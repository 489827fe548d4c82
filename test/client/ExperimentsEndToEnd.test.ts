/**
 * Done when, through a real server on SQLite and PostgreSQL and the real SDK: simulated units with
 * known behaviour, half served and tracked by the SDK (its own exposures, `track`, batches whose
 * answer is lost and resent), half by the HTTP routes directly (every batch sent twice, some
 * exposures twice within a batch), and the stored per-unit rows equal what was sent, exactly.
 *
 * UNITS units (default 10,000 in the suite, so each backend runs in well under a minute on the
 * shared two-core machine); the full 100,000 is the same test with FLAGPORT_E2E_UNITS=100000, as
 * bench/experiments-e2e.sh runs it (figures in docs/operations/benchmarks.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createClient } from "../../adapters/client/index.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { request } from "../http/fixtures.js"
import { type ExperimentServer, ingestionWire, startExperimentServer } from "./ExperimentServer.js"

const UNITS = Number(process.env["FLAGPORT_E2E_UNITS"] ?? 10_000)
const BATCH = 1000

/** Unit i's known behaviour: purchases (0 to 2, each worth 1 + i % 7; every fifth without a value: 1) and one page load for every other unit. */
const purchasesOf = (i: number) => i % 3
const priceOf = (i: number) => (i % 5 === 0 ? undefined : 1 + (i % 7))
const loadOf = (i: number) => (i % 2 === 0 ? 100 + (i % 50) : undefined)

describe.each(["sqlite", "postgres"] as const)("experiments end to end (%s)", (backend) => {
  let server: ExperimentServer
  beforeAll(async () => {
    server = await startExperimentServer(backend)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  it(`${UNITS.toLocaleString("en-US")} units through the SDK and the HTTP routes, duplicates and retries mixed in: the stored rows equal what was sent`, async () => {
    const wire = ingestionWire()
    const common = { url: server.t.url, key: server.t.keys.client, environment: "production", sendInsights: false, flushIntervalMs: 3_600_000, maxQueuedItems: 3 * UNITS }
    const sdk = await createClient({ ...common, fetch: wire.fetch })
    // Evaluates for the units the routes carry (what a backend with its own evaluator would serve).
    const evaluator = await createClient({ ...common, exposures: false })
    const variationOf = new Map<string, string>()
    const now = () => new Date().toISOString()
    try {
      // Every third post of the SDK loses its answer: the batch is resent with its id.
      wire.always("deliver")
      for (let i = 0; i < 30; i++) wire.next("deliver", "deliver", "lose-answer")

      const direct: { exposures: Array<Record<string, unknown>>; events: Array<Record<string, unknown>> } = { exposures: [], events: [] }
      for (let i = 0; i < UNITS; i++) {
        const context = { key: `session-${i}`, attributes: { userId: `unit-${i}` } }
        const unit = `unit-${i}`
        if (i % 2 === 0) {
          for (let n = 0; n < 3; n++) variationOf.set(unit, String(sdk.detail("checkout", context, false).variationKey)) // deduplicated
          for (let p = 0; p < purchasesOf(i); p++) sdk.track("purchase", unit, priceOf(i))
          const load = loadOf(i)
          if (load !== undefined) sdk.track("page_load", unit, load)
        } else {
          const variationKey = String(evaluator.detail("checkout", context, false).variationKey)
          variationOf.set(unit, variationKey)
          const exposure = { flagKey: "checkout", variationKey, ruleId: "half", unit, timestamp: now() }
          direct.exposures.push(exposure)
          if (i % 4 === 1) direct.exposures.push(exposure) // the same exposure twice
          for (let p = 0; p < purchasesOf(i); p++) {
            const price = priceOf(i)
            direct.events.push({ event: "purchase", unit, ...(price === undefined ? {} : { value: price }), timestamp: now() })
          }
          const load = loadOf(i)
          if (load !== undefined) direct.events.push({ event: "page_load", unit, value: load, timestamp: now() })
        }
      }
      // The routes, every batch sent twice with its id (a retry): exposures first, then events.
      for (const [path, field, items] of [["/v1/exposures", "exposures", direct.exposures], ["/v1/track", "events", direct.events]] as const) {
        for (let b = 0; b * BATCH < items.length; b++) {
          const body = { environment: "production", batchId: `direct-${field}-${b}`, [field]: items.slice(b * BATCH, (b + 1) * BATCH) }
          for (const attempt of [false, true]) {
            const reply = await request(server.t.url, "POST", path, { key: server.t.keys.client, body })
            expect(reply.status, reply.text).toBe(202)
            expect((reply.body as { duplicate: boolean }).duplicate).toBe(attempt)
          }
        }
      }
      // The flush interval's ticks, until everything is through (a lost answer stops a flush: the next resends it).
      for (let tick = 0; tick < 100 && !(await sdk.flush()); tick++);
      await sdk.close()
      expect(sdk.delivery.exposures).toMatchObject({ pending: 0, sent: Math.ceil(UNITS / 2), dropped: { full: 0, refused: 0, invalid: 0, expired: 0 } })
      expect(sdk.delivery.events.pending).toBe(0)
      expect(wire.sent.filter((s) => (s.answer as { duplicate?: boolean } | undefined)?.duplicate === true).length).toBeGreaterThan(0)

      const units = await server.units()
      const byUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
      const expectedUnits = [...variationOf].sort(([a], [b]) => byUnit(a, b)).map(([unit, variationKey]) => [unit, variationKey, 1])
      expect(units.map((u) => [u.unit, u.variationKey, u.variationsSeen])).toEqual(expectedUnits)

      const expected = (metricKey: string) => {
        const rows: Array<[string, string, number, number]> = []
        for (let i = 0; i < UNITS; i++) {
          const unit = `unit-${i}`
          if (metricKey === "speed") {
            const load = loadOf(i)
            if (load !== undefined) rows.push([unit, variationOf.get(unit)!, load, 1])
          } else if (purchasesOf(i) > 0) rows.push([unit, variationOf.get(unit)!, purchasesOf(i) * (priceOf(i) ?? 1), purchasesOf(i)])
        }
        return rows.sort((a, b) => byUnit(a[0], b[0]))
      }
      const stored = await server.t.run(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.metricRows(server.experimentId)))
      for (const metricKey of ["buys", "revenue", "speed"]) {
        const rows = stored.filter((r) => r.metricKey === metricKey)
        expect(rows.map((r) => [r.unit, r.variationKey, r.postSum, r.postCount]), metricKey).toEqual(expected(metricKey))
        expect(rows.every((r) => r.preCount === 0 && r.variationsSeen === 1)).toBe(true)
      }
    } finally {
      await sdk.close()
      await evaluator.close()
    }
  }, 600_000)
})
