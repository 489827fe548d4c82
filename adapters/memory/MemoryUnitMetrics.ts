import type { UnitRow } from "../../src/domain/experiments/Exposure.js"
import type { UnitEvent } from "../../src/domain/experiments/MetricEvent.js"
import { countsAnything, figuresOf, type MetricFigures, NO_FIGURES, type UnitMetricRow } from "../../src/domain/experiments/UnitMetrics.js"

/**
 * The memory backend's metric rows, computed from the definition (UnitMetrics.ts) when read: the
 * raw events of each unit against its first exposure now, plus the figures of events pruned once
 * no exposure could move that first exposure any more (folded).
 */

const unitId = (experimentId: string, unit: string) => `${experimentId}\u0000${unit}`
const metricId = (experimentId: string, metricKey: string, unit: string) => `${experimentId}\u0000${metricKey}\u0000${unit}`

/** The raw events with `events` added, by experiment and unit. */
export const foldEvents = (
  raw: ReadonlyMap<string, ReadonlyArray<UnitEvent>>,
  events: ReadonlyArray<UnitEvent>
): ReadonlyMap<string, ReadonlyArray<UnitEvent>> => {
  const next = new Map(raw)
  for (const event of events) {
    const id = unitId(event.experimentId, event.unit)
    next.set(id, [...(next.get(id) ?? []), event])
  }
  return next
}

const plus = (a: MetricFigures, b: MetricFigures): MetricFigures => ({
  postSum: a.postSum + b.postSum,
  postCount: a.postCount + b.postCount,
  preSum: a.preSum + b.preSum,
  preCount: a.preCount + b.preCount
})

const byMetric = (events: ReadonlyArray<UnitEvent>) => {
  const groups = new Map<string, Array<UnitEvent>>()
  for (const event of events) groups.set(event.metricKey, [...(groups.get(event.metricKey) ?? []), event])
  return groups
}

/** The experiment's metric rows of exposed units that count something, ordered by metric and unit. */
export const metricRowsOf = (
  experimentId: string,
  units: ReadonlyMap<string, UnitRow>,
  raw: ReadonlyMap<string, ReadonlyArray<UnitEvent>>,
  folded: ReadonlyMap<string, MetricFigures>
): ReadonlyArray<UnitMetricRow> => {
  const figures = new Map<string, { metricKey: string; unit: string; figures: MetricFigures }>()
  for (const [id, value] of folded) {
    const [experiment, metricKey, unit] = id.split("\u0000") as [string, string, string]
    if (experiment === experimentId) figures.set(id, { metricKey, unit, figures: value })
  }
  for (const [id, events] of raw) {
    const row = units.get(id)
    if (row === undefined || row.experimentId !== experimentId) continue
    for (const [metricKey, group] of byMetric(events)) {
      const key = metricId(experimentId, metricKey, row.unit)
      const counted = figuresOf(group, Date.parse(row.firstExposureAt))
      figures.set(key, { metricKey, unit: row.unit, figures: plus(figures.get(key)?.figures ?? NO_FIGURES, counted) })
    }
  }
  return [...figures.values()]
    .filter((entry) => countsAnything(entry.figures))
    .map((entry) => {
      const row = units.get(unitId(experimentId, entry.unit))!
      return { experimentId, metricKey: entry.metricKey, unit: entry.unit, variationKey: row.variationKey, variationsSeen: row.variationsSeen, ...entry.figures }
    })
    .sort((a, b) => (a.metricKey < b.metricKey ? -1 : a.metricKey > b.metricKey ? 1 : a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0))
}

/**
 * The raw events no exposure at or after `horizon` can reclassify, gone: those of units first
 * exposed before it are folded into their figures; those of units not exposed that lie more than
 * their pre-window before it are dropped (they can never count).
 */
export const pruneRaw = (
  horizon: number,
  units: ReadonlyMap<string, UnitRow>,
  raw: ReadonlyMap<string, ReadonlyArray<UnitEvent>>,
  folded: ReadonlyMap<string, MetricFigures>
) => {
  const events = new Map(raw)
  const nextFolded = new Map(folded)
  let pruned = 0
  for (const [id, list] of raw) {
    const row = units.get(id)
    if (row !== undefined) {
      const firstAt = Date.parse(row.firstExposureAt)
      if (firstAt >= horizon) continue
      for (const [metricKey, group] of byMetric(list)) {
        const key = metricId(row.experimentId, metricKey, row.unit)
        nextFolded.set(key, plus(nextFolded.get(key) ?? NO_FIGURES, figuresOf(group, firstAt)))
      }
      events.delete(id)
      pruned += list.length
    } else {
      const kept = list.filter((event) => event.at + event.preWindowMs >= horizon)
      pruned += list.length - kept.length
      if (kept.length === 0) events.delete(id)
      else events.set(id, kept)
    }
  }
  return { events, folded: nextFolded, pruned }
}
