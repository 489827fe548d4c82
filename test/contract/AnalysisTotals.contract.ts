import { expect } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { exposureCountsOf, metricArmsOf } from "../../src/domain/experiments/AnalysisTotals.js"
import type { UnitExposure } from "../../src/domain/experiments/Exposure.js"
import type { UnitEvent } from "../../src/domain/experiments/MetricEvent.js"
import type { MeasuredMetric } from "../../src/domain/experiments/UnitMetrics.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { Transactor } from "../../src/ports/Transactor.js"
import { Ingestion } from "../../src/services/experiments/Ingestion.js"
import type { Contract } from "./Backend.js"

/**
 * The running totals against the full aggregate they replace, on every backend: after every step
 * of a random ingestion (exposures and events in any order, duplicates, resent batches, units
 * switching variation, out-of-order timestamps moving a first exposure, rounds rolled back, raw
 * events pruned, rounds written side by side), `analysisTotals` gives exactly what
 * `exposureCounts` and `metricArms` compute from every row. Values are multiples of 1/4 below
 * 10^3, so every sum is exact in doubles whatever its order and equality can be exact.
 */

const HOUR = 3_600_000
const T0 = Date.parse("2026-12-01T00:00:00.000Z")
const METRICS = [
  { metricKey: "m-window", windowMs: 2 * HOUR, preWindowMs: 24 * HOUR },
  { metricKey: "m-open", windowMs: null, preWindowMs: 0 }
] as const
const READS: ReadonlyArray<MeasuredMetric> = METRICS.flatMap((m) => [{ key: m.metricKey, kind: "conversion" as const }, { key: m.metricKey, kind: "mean" as const }])

const unit = fc.constantFrom("u0", "u1", "u2", "u3", "u4", "u5")
const minute = fc.integer({ min: -30 * 60, max: 30 * 60 }).map((m) => T0 + m * 60_000)
const exposure = fc.record({ unit, variationKey: fc.constantFrom("a", "a", "b", "c"), at: minute })
const event = fc.record({ unit, metric: fc.constantFrom(0, 1), at: minute, value: fc.integer({ min: -4000, max: 4000 }).map((v) => v / 4) })
const round = fc.record({
  exposures: fc.array(exposure, { maxLength: 6 }),
  events: fc.array(event, { maxLength: 8 }),
  // A small pool of batch ids: some rounds resend an earlier batch (counted once).
  batch: fc.option(fc.constantFrom("b1", "b2", "b3"), { nil: undefined })
})
type Round = typeof round extends fc.Arbitrary<infer R> ? R : never
const step = fc.oneof(
  { weight: 6, arbitrary: round.map((r) => ({ kind: "round" as const, ...r })) },
  { weight: 2, arbitrary: fc.array(round, { minLength: 2, maxLength: 3 }).map((rounds) => ({ kind: "together" as const, rounds })) },
  { weight: 1, arbitrary: round.map((r) => ({ kind: "rolledBack" as const, ...r })) },
  { weight: 1, arbitrary: minute.map((horizon) => ({ kind: "prune" as const, horizon })) }
)

export const analysisTotalsContract: Contract = (it) => {
  it.effect("the running totals equal the full aggregate after every step of a random ingestion", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const tx = yield* Transactor
      const cases = fc.sample(fc.array(step, { minLength: 3, maxLength: 8 }), { numRuns: 12, seed: 42 })
      for (const [n, steps] of cases.entries()) {
        const experimentId = `e-${n}-${Math.random().toString(36).slice(2)}`
        const itemsOf = (r: Round) => ({
          exposures: r.exposures.map((e): UnitExposure => ({ experimentId, ...e })),
          events: r.events.map((e): UnitEvent => ({ experimentId, unit: e.unit, at: e.at, value: e.value, ...METRICS[e.metric]! }))
        })
        const batchOf = (id: string | undefined) => (id === undefined ? undefined : { keyId: "k-totals", route: "exposures" as const, batchId: `${experimentId}-${id}`, receivedAt: new Date(T0).toISOString() })
        for (const [i, s] of steps.entries()) {
          switch (s.kind) {
            case "round":
              yield* ingestion.commit({ ...itemsOf(s), batch: batchOf(s.batch) })
              break
            case "together":
              yield* Effect.all(s.rounds.map((r) => ingestion.commit({ ...itemsOf(r), batch: batchOf(r.batch) })), { concurrency: "unbounded" })
              break
            case "rolledBack": {
              const { events, exposures } = itemsOf(s)
              const failed = yield* Effect.flip(tx.withTransaction(Effect.zipRight(repo.applyItems(exposures, events), Effect.fail("rolled back" as const))))
              expect(failed).toBe("rolled back")
              break
            }
            case "prune":
              yield* repo.pruneEvents(s.horizon)
              break
          }
          const totals = yield* repo.analysisTotals(experimentId)
          const where = `case ${n}, step ${i}: ${JSON.stringify(steps.slice(0, i + 1))}`
          expect(exposureCountsOf(totals), where).toEqual(yield* repo.exposureCounts(experimentId))
          for (const metric of READS) {
            expect(metricArmsOf(totals, metric), `${where}, ${metric.key} as ${metric.kind}`).toEqual(yield* repo.metricArms(experimentId, metric))
          }
        }
        yield* repo.removeExperiment(experimentId)
        expect(yield* repo.analysisTotals(experimentId)).toEqual({ variations: [], metrics: [] })
      }
    }), 120_000) // a few hundred statements: a minute on a loaded machine's PostgreSQL, seconds otherwise
}
