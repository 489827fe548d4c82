import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { totalsOf } from "../../src/domain/experiments/AnalysisTotals.js"
import { collapseExposures, type UnitRow } from "../../src/domain/experiments/Exposure.js"
import type { UnitEvent } from "../../src/domain/experiments/MetricEvent.js"
import { armTotals, type MetricFigures } from "../../src/domain/experiments/UnitMetrics.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { MemoryDb } from "./MemoryDb.js"
import { foldEvents, metricRowsOf, pruneRaw } from "./MemoryUnitMetrics.js"

/**
 * The reference ExperimentUnitRepository: the units' rows, the distinct variations each unit was
 * exposed to, the batches seen, and the metric events (raw until pruned, then folded into their
 * figures; MemoryUnitMetrics.ts computes the metric rows from them when read), in one cell of the
 * memory database (its transactions span it).
 */

interface State {
  readonly units: ReadonlyMap<string, UnitRow>
  readonly variations: ReadonlySet<string>
  readonly batches: ReadonlyMap<string, string>
  /** Raw events by experiment and unit. */
  readonly events: ReadonlyMap<string, ReadonlyArray<UnitEvent>>
  /** Figures of pruned events by experiment, metric and unit. */
  readonly folded: ReadonlyMap<string, MetricFigures>
}

const unitId = (experimentId: string, unit: string) => `${experimentId}\u0000${unit}`

export const layer = Layer.effect(
  ExperimentUnitRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<State>("experimentUnits", {
      units: new Map(),
      variations: new Set(),
      batches: new Map(),
      events: new Map(),
      folded: new Map()
    })
    /** Forgets every row whose id starts with `prefix` (ids begin with their analysis's id). */
    const removeStartingWith = (prefix: string) =>
      table.modify((state) => {
        const units = new Map([...state.units].filter(([id]) => !id.startsWith(prefix)))
        const variations = new Set([...state.variations].filter((id) => !id.startsWith(prefix)))
        const events = new Map([...state.events].filter(([id]) => !id.startsWith(prefix)))
        const folded = new Map([...state.folded].filter(([id]) => !id.startsWith(prefix)))
        return [undefined, { ...state, units, variations, events, folded }]
      })
    return ExperimentUnitRepository.of({
      claimBatches: (batches) =>
        table.modify((state) => {
          const next = new Map(state.batches)
          const fresh = batches.map((batch) => {
            const id = `${batch.keyId}\u0000${batch.route}\u0000${batch.batchId}`
            if (next.has(id)) return false
            next.set(id, batch.receivedAt)
            return true
          })
          return [fresh, { ...state, batches: next }]
        }),
      applyItems: (exposures, events) =>
        table.modify((state) => {
          const { units, variations } = collapseExposures(exposures)
          const nextVariations = new Set(state.variations)
          const added = new Map<string, number>()
          for (const v of variations) {
            const id = `${unitId(v.experimentId, v.unit)}\u0000${v.variationKey}`
            if (nextVariations.has(id)) continue
            nextVariations.add(id)
            added.set(unitId(v.experimentId, v.unit), (added.get(unitId(v.experimentId, v.unit)) ?? 0) + 1)
          }
          const nextUnits = new Map(state.units)
          for (const u of units) {
            const id = unitId(u.experimentId, u.unit)
            const stored = nextUnits.get(id)
            const earlier = stored === undefined || u.firstAt < stored.firstExposureAt
            nextUnits.set(id, {
              experimentId: u.experimentId,
              unit: u.unit,
              firstExposureAt: earlier ? u.firstAt : stored.firstExposureAt,
              variationKey: earlier ? u.variationKey : stored.variationKey,
              variationsSeen: (stored?.variationsSeen ?? 0) + (added.get(id) ?? 0)
            })
          }
          return [undefined, { ...state, units: nextUnits, variations: nextVariations, events: foldEvents(state.events, events) }]
        }),
      metricRows: (experimentId) => Effect.map(table.get, (state) => metricRowsOf(experimentId, state.units, state.events, state.folded)),
      metricArms: (experimentId, metric) =>
        Effect.map(table.get, (state) =>
          armTotals(
            [...state.units.values()].filter((row) => row.experimentId === experimentId),
            metricRowsOf(experimentId, state.units, state.events, state.folded),
            metric
          )),
      // The reference computes the totals from their definition when read.
      analysisTotals: (analysisId) =>
        Effect.map(table.get, (state) =>
          totalsOf(
            [...state.units.values()].filter((row) => row.experimentId === analysisId),
            metricRowsOf(analysisId, state.units, state.events, state.folded)
          )),
      unitPage: (experimentId, metricKeys, after, limit) =>
        Effect.map(table.get, (state) => {
          const rows = metricRowsOf(experimentId, state.units, state.events, state.folded)
          return [...state.units.values()]
            .filter((row) => row.experimentId === experimentId && (after === null || row.unit > after))
            .sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0))
            .slice(0, limit)
            .map((row) => ({
              ...row,
              figures: new Map(rows.filter((r) => r.unit === row.unit && metricKeys.includes(r.metricKey)).map((r) => [r.metricKey, r]))
            }))
        }),
      pruneEvents: (horizon) =>
        table.modify((state) => {
          const { events, folded, pruned } = pruneRaw(horizon, state.units, state.events, state.folded)
          return [pruned, { ...state, events, folded }]
        }),
      units: (experimentId) =>
        Effect.map(table.get, (state) =>
          [...state.units.values()].filter((row) => row.experimentId === experimentId).sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0))),
      exposureCounts: (experimentId) =>
        Effect.map(table.get, (state) => {
          const perVariation = new Map<string, number>()
          let inSeveralVariations = 0
          for (const row of state.units.values()) {
            if (row.experimentId !== experimentId) continue
            if (row.variationsSeen > 1) inSeveralVariations += 1
            else perVariation.set(row.variationKey, (perVariation.get(row.variationKey) ?? 0) + 1)
          }
          return {
            perVariation: [...perVariation].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([variationKey, units]) => ({ variationKey, units })),
            inSeveralVariations
          }
        }),
      removeExperiment: (experimentId) => removeStartingWith(`${experimentId}\u0000`),
      // Every row's id begins with its analysis's id: a prefix of analysis ids is a prefix of theirs.
      removeAnalyses: (prefix) => removeStartingWith(prefix),
      pruneBatches: (before) =>
        table.modify((state) => {
          const kept = new Map([...state.batches].filter(([, at]) => at >= before))
          return [state.batches.size - kept.size, { ...state, batches: kept }]
        })
    })
  })
)
