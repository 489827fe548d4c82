import { expect } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import type { UnitExposure } from "../../src/domain/experiments/Exposure.js"
import type { UnitEvent } from "../../src/domain/experiments/MetricEvent.js"
import { armTotals, countsAnything, figuresOf, type UnitMetricRow } from "../../src/domain/experiments/UnitMetrics.js"
import { ExperimentUnitRepository, type IngestBatch } from "../../src/ports/ExperimentUnitRepository.js"
import { Ingestion } from "../../src/services/experiments/Ingestion.js"
import type { Contract } from "./Backend.js"

/**
 * Metric events into per-unit metric rows, on every backend, written by the ingestion's group
 * commit: whatever order exposures and events arrive in (an event before its unit's exposure, a
 * late exposure moving the first exposure earlier; two requests in one round or apart), the rows equal the definition (UnitMetrics.ts) applied to
 * everything received; a resent batch counts once; pruning raw events changes no figure.
 */

const HOUR = 3_600_000
const T0 = Date.parse("2026-12-01T00:00:00.000Z")
const METRICS = [
  { metricKey: "m-window", windowMs: 2 * HOUR, preWindowMs: 24 * HOUR },
  { metricKey: "m-open", windowMs: null, preWindowMs: 0 }
] as const

type Item = { readonly exposure: UnitExposure } | { readonly event: UnitEvent }

/** What the definition says for `items`, computed directly (the property's oracle). */
const expected = (experimentId: string, items: ReadonlyArray<Item>): ReadonlyArray<UnitMetricRow> => {
  const exposures = items.flatMap((i) => ("exposure" in i ? [i.exposure] : []))
  const events = items.flatMap((i) => ("event" in i ? [i.event] : []))
  const rows: Array<UnitMetricRow> = []
  for (const metric of [...METRICS].sort((a, b) => (a.metricKey < b.metricKey ? -1 : 1))) {
    for (const unit of [...new Set(exposures.map((e) => e.unit))].sort()) {
      const own = exposures.filter((e) => e.unit === unit)
      const first = own.reduce((a, b) => (b.at < a.at ? b : a))
      const figures = figuresOf(events.filter((e) => e.unit === unit && e.metricKey === metric.metricKey), first.at)
      if (!countsAnything(figures)) continue
      const variationsSeen = new Set(own.map((e) => e.variationKey)).size
      rows.push({ experimentId, metricKey: metric.metricKey, unit, variationKey: first.variationKey, variationsSeen, ...figures })
    }
  }
  return rows
}

const units = fc.constantFrom("u0", "u1", "u2", "u3")
/** Distinct exposure instants (a tie between two variations would make the first one ambiguous). */
const exposureTimes = fc.uniqueArray(fc.integer({ min: 0, max: 48 * 4 }), { minLength: 1, maxLength: 10 })
const scenario = fc.record({
  exposures: exposureTimes.chain((times) => fc.tuple(...times.map((quarter) => fc.record({ unit: units, variationKey: fc.constantFrom("a", "b"), at: fc.constant(T0 + quarter * 15 * 60_000) })))),
  events: fc.array(fc.record({
    unit: units,
    metric: fc.constantFrom(0, 1),
    // From two days before the earliest exposure to a day after the latest, on minute marks and
    // exactly on window edges too.
    at: fc.oneof(fc.integer({ min: -48 * 60, max: 72 * 60 }).map((m) => T0 + m * 60_000), fc.integer({ min: 0, max: 48 * 4 }).map((q) => T0 + q * 15 * 60_000 + 2 * HOUR)),
    value: fc.integer({ min: -1_000_000, max: 1_000_000 })
  }), { maxLength: 30 }),
  cuts: fc.array(fc.nat(), { maxLength: 6 }),
  seed: fc.nat()
})

const shuffled = <A>(items: ReadonlyArray<A>, seed: number): ReadonlyArray<A> => {
  const out = [...items]
  let state = seed + 1
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648
    const j = state % (i + 1)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

export const unitMetricsContract: Contract = (it) => {
  it.effect("metric rows equal the definition whatever the order and batching of arrival", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const cases = fc.sample(scenario, { numRuns: 20, seed: 41 })
      for (const [n, c] of cases.entries()) {
        const experimentId = `e-${n}-${Math.random().toString(36).slice(2)}`
        const items: Array<Item> = [
          ...c.exposures.map((e) => ({ exposure: { experimentId, ...e } })),
          ...c.events.map((e) => ({ event: { experimentId, unit: e.unit, at: e.at, value: e.value, ...METRICS[e.metric]! } }))
        ]
        const arrival = shuffled(items, c.seed)
        const cuts = [...new Set([0, ...c.cuts.map((cut) => cut % (arrival.length + 1)), arrival.length])].sort((a, b) => a - b)
        for (let i = 0; i + 1 < cuts.length; i++) {
          const part = arrival.slice(cuts[i], cuts[i + 1])
          const exposures = part.flatMap((p) => ("exposure" in p ? [p.exposure] : []))
          const events = part.flatMap((p) => ("event" in p ? [p.event] : []))
          // Each part arrives as the two routes would send it, events first or exposures first.
          const sent = [ingestion.commit({ exposures: [], events }), ingestion.commit({ exposures })]
          // Apart (one round each, in either order) or together (one round holding both).
          yield* Effect.all(c.seed % 2 === 0 ? sent : sent.reverse(), { concurrency: c.seed % 3 === 0 ? "unbounded" : 1 })
        }
        const rows = expected(experimentId, items)
        expect(yield* repo.metricRows(experimentId), `case ${n}: ${JSON.stringify(c)}`).toEqual(rows)
        // The aggregate per metric equals its definition over the unit rows and these metric rows.
        const unitRows = yield* repo.units(experimentId)
        for (const metric of [{ key: "m-window", kind: "conversion" }, { key: "m-open", kind: "mean" }, { key: "m-window", kind: "mean" }] as const) {
          expect(yield* repo.metricArms(experimentId, metric), `case ${n}, ${metric.key} as ${metric.kind}`).toEqual(armTotals(unitRows, rows, metric))
        }
      }
    }), 120_000) // a few hundred statements: minutes on a loaded machine's PostgreSQL, seconds otherwise

  it.effect("a resent batch of events counts once; pruning raw events changes no figure and later events still count", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const send = (events: ReadonlyArray<UnitEvent>, batch?: IngestBatch) => ingestion.commit({ exposures: [], events, batch })
      const expose = (exposures: ReadonlyArray<UnitExposure>) => ingestion.commit({ exposures })
      const experimentId = `e-${Math.random().toString(36).slice(2)}`
      const event = (unit: string, at: number, value = 1): UnitEvent => ({ experimentId, metricKey: "m-window", unit, at, value, windowMs: 2 * HOUR, preWindowMs: 24 * HOUR })
      const batch = { keyId: "k1", route: "track" as const, batchId: "events-1", receivedAt: new Date(T0).toISOString() }
      // u1 exposed at T0; u2 never before the prune; u3 exposed long after its early event.
      expect(yield* send([event("u1", T0 - HOUR, 5), event("u1", T0 + HOUR, 7), event("u2", T0 - 30 * HOUR), event("u3", T0 - 3 * HOUR, 11)], batch)).toBe(true)
      expect(yield* send([event("u1", T0 + HOUR, 100)], batch)).toBe(false)
      yield* expose([{ experimentId, unit: "u1", variationKey: "a", at: T0 }])
      const rowsBefore = yield* repo.metricRows(experimentId)
      expect(rowsBefore.map((r) => [r.unit, r.postSum, r.postCount, r.preSum, r.preCount])).toEqual([["u1", 7, 1, 5, 1]])

      // Every exposure from now on is at or after T0 + 1 h: u1's first exposure is settled, and
      // u2's event (30 h before it, with a 24 h pre-window) can never count. u3's may.
      const pruned = yield* repo.pruneEvents(T0 + HOUR)
      // (other tests' experiments share the storage: at least these three.)
      expect(pruned).toBeGreaterThanOrEqual(3)
      expect(yield* repo.metricRows(experimentId)).toEqual(rowsBefore)
      yield* send([event("u1", T0 + 90 * 60_000, 3), event("u1", T0 + 3 * HOUR, 1000)])
      yield* expose([{ experimentId, unit: "u2", variationKey: "b", at: T0 + HOUR }, { experimentId, unit: "u3", variationKey: "b", at: T0 + 2 * HOUR }])
      const rows = yield* repo.metricRows(experimentId)
      expect(rows.map((r) => [r.unit, r.variationKey, r.postSum, r.postCount, r.preSum, r.preCount])).toEqual([["u1", "a", 10, 2, 5, 1], ["u3", "b", 0, 0, 11, 1]])

      yield* repo.removeExperiment(experimentId)
      expect(yield* repo.metricRows(experimentId)).toEqual([])
    }))

  it.effect("a unit that sees a second variation later has it counted on its metric rows, each of them, in one round with other units", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const experimentId = `e-${Math.random().toString(36).slice(2)}`
      const metric = (metricKey: string) => (unit: string, at: number, value: number): UnitEvent => ({ experimentId, metricKey, unit, at, value, windowMs: null, preWindowMs: 0 })
      const [m1, m2] = [metric("m1"), metric("m2")]
      yield* ingestion.commit({ exposures: ["u1", "u2", "u3"].map((unit) => ({ experimentId, unit, variationKey: "a", at: T0 })) })
      yield* ingestion.commit({ exposures: [], events: [m1("u1", T0 + HOUR, 2), m2("u1", T0 + HOUR, 3), m1("u2", T0 + HOUR, 4), m1("u3", T0 + HOUR, 5)] })
      // u1 and u2 see b after their first exposure (which stays): their rows now count two variations; u3's one.
      yield* ingestion.commit({ exposures: [{ experimentId, unit: "u1", variationKey: "b", at: T0 + 2 * HOUR }, { experimentId, unit: "u2", variationKey: "b", at: T0 + 2 * HOUR }] })
      const rows = yield* repo.metricRows(experimentId)
      expect(rows.map((r) => [r.metricKey, r.unit, r.variationKey, r.variationsSeen, r.postSum])).toEqual([
        ["m1", "u1", "a", 2, 2], ["m1", "u2", "a", 2, 4], ["m1", "u3", "a", 1, 5], ["m2", "u1", "a", 2, 3]
      ])
      // The running totals count only u3 (seen in one variation) for m1, nothing for m2.
      const totals = yield* repo.analysisTotals(experimentId)
      expect(totals).toMatchObject({ variations: [{ variationKey: "a", units: 1, unitsInSeveral: 2 }] })
      expect(totals.metrics.filter((m) => m.metricKey === "m1")).toMatchObject([{ variationKey: "a", converted: 1, postSum: 5 }])
      expect(totals.metrics.filter((m) => m.metricKey === "m2" && (m.converted !== 0 || m.postSum !== 0))).toEqual([])
      yield* repo.removeExperiment(experimentId)
    }))
}
