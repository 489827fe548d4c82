/**
 * The running totals of an analysis (docs/guide/experiments.md, "How results are read"): what the
 * results (and a release plan's guardrails) analyse, kept as units and events arrive, so reading
 * them costs the number of variations and metrics, not the number of units.
 *
 * An analysis is identified by the id its unit rows are written under (an experiment's id today).
 * Per variation: `units` exposed to it only, and `unitsInSeveral` first exposed to it and then to
 * another variation (left out of every figure). Per metric and variation, over the units exposed
 * to that variation only, the metric's sums both as a conversion (whole counts of units that
 * converted, had a covariate, both) and as a mean (sums of the post-exposure sum, the covariate,
 * their squares and their product), so the metric's kind is chosen when they are read.
 *
 * `totalsOf` is the definition (from unit rows and metric rows); the storage keeps the same figures
 * by delta and the contract suite holds the two equal. `exposureCountsOf` and `metricArmsOf` turn
 * them into what `armTotals` and the units per variation give.
 */
import type { ArmMoments, MeasuredMetric, MetricArmTotals, UnitMetricRow } from "./UnitMetrics.js"

export interface VariationUnits {
  readonly variationKey: string
  readonly units: number
  readonly unitsInSeveral: number
}

export interface MetricVariationTotals {
  readonly metricKey: string
  readonly variationKey: string
  readonly converted: number
  readonly preConverted: number
  readonly bothConverted: number
  readonly postSum: number
  readonly postSquares: number
  readonly preSum: number
  readonly preSquares: number
  readonly crossSum: number
}

export interface AnalysisTotals {
  /** Ordered by variation. */
  readonly variations: ReadonlyArray<VariationUnits>
  /** Ordered by metric, then variation. */
  readonly metrics: ReadonlyArray<MetricVariationTotals>
}

/** The units per variation the sample-ratio check counts, and the units left out. */
export interface ExposureCounts {
  readonly perVariation: ReadonlyArray<{ readonly variationKey: string; readonly units: number }>
  readonly inSeveralVariations: number
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
/** A sum as JavaScript's: a database may answer -0 for a total whose terms cancel. */
const plain = (value: number) => (value === 0 ? 0 : value)

/** The units per variation (variations with at least one, ordered) and the units left out. */
export const exposureCountsOf = (totals: AnalysisTotals): ExposureCounts => ({
  perVariation: totals.variations.filter((v) => v.units > 0).map((v) => ({ variationKey: v.variationKey, units: v.units })),
  inSeveralVariations: totals.variations.reduce((sum, v) => sum + v.unitsInSeveral, 0)
})

/** One metric's sufficient statistics per variation (what `armTotals` computes from every row). */
export const metricArmsOf = (totals: AnalysisTotals, metric: MeasuredMetric): ReadonlyArray<MetricArmTotals> => {
  const own = new Map(totals.metrics.filter((m) => m.metricKey === metric.key).map((m) => [m.variationKey, m]))
  return totals.variations
    .filter((v) => v.units > 0)
    .map((v): MetricArmTotals => {
      const t = own.get(v.variationKey)
      const moments: ArmMoments = t === undefined
        ? { n: v.units, sum: 0, sumSquares: 0, preSum: 0, preSumSquares: 0, crossSum: 0 }
        : metric.kind === "conversion"
        ? { n: v.units, sum: t.converted, sumSquares: t.converted, preSum: t.preConverted, preSumSquares: t.preConverted, crossSum: t.bothConverted }
        : { n: v.units, sum: plain(t.postSum), sumSquares: plain(t.postSquares), preSum: plain(t.preSum), preSumSquares: plain(t.preSquares), crossSum: plain(t.crossSum) }
      return { variationKey: v.variationKey, moments }
    })
}

/**
 * The definition: the totals of an analysis from its unit rows (variation and variations seen)
 * and its metric rows (each with its unit's variation and variations seen).
 */
export const totalsOf = (
  units: ReadonlyArray<{ readonly variationKey: string; readonly variationsSeen: number }>,
  rows: ReadonlyArray<UnitMetricRow>
): AnalysisTotals => {
  const variations = new Map<string, { units: number; unitsInSeveral: number }>()
  for (const unit of units) {
    const v = variations.get(unit.variationKey) ?? { units: 0, unitsInSeveral: 0 }
    if (unit.variationsSeen === 1) v.units++
    else v.unitsInSeveral++
    variations.set(unit.variationKey, v)
  }
  const metrics = new Map<string, MetricVariationTotals>()
  for (const row of rows) {
    if (row.variationsSeen !== 1) continue
    const id = `${row.metricKey}\u0000${row.variationKey}`
    const t = metrics.get(id) ?? {
      metricKey: row.metricKey,
      variationKey: row.variationKey,
      converted: 0,
      preConverted: 0,
      bothConverted: 0,
      postSum: 0,
      postSquares: 0,
      preSum: 0,
      preSquares: 0,
      crossSum: 0
    }
    const converted = row.postCount > 0 ? 1 : 0
    const preConverted = row.preCount > 0 ? 1 : 0
    metrics.set(id, {
      ...t,
      converted: t.converted + converted,
      preConverted: t.preConverted + preConverted,
      bothConverted: t.bothConverted + converted * preConverted,
      postSum: t.postSum + row.postSum,
      postSquares: t.postSquares + row.postSum * row.postSum,
      preSum: t.preSum + row.preSum,
      preSquares: t.preSquares + row.preSum * row.preSum,
      crossSum: t.crossSum + row.preSum * row.postSum
    })
  }
  return {
    variations: [...variations].sort(([a], [b]) => byKey(a, b)).map(([variationKey, v]) => ({ variationKey, ...v })),
    metrics: [...metrics.values()].sort((a, b) => byKey(a.metricKey, b.metricKey) || byKey(a.variationKey, b.variationKey))
  }
}
