/**
 * The geometry of the evaluations chart: one stacked bar per hour (a slice per variation), scaled
 * to the busiest hour, and the hour labels along the bottom. Pure, so it is tested without a browser.
 */
import type { InsightsSeries } from "./types.js"

export interface Slice {
  readonly variationKey: string
  readonly count: number
  readonly y: number
  readonly height: number
}

export interface Bar {
  readonly hour: string
  readonly x: number
  readonly width: number
  readonly total: number
  readonly slices: ReadonlyArray<Slice>
}

export interface Chart {
  readonly bars: ReadonlyArray<Bar>
  /** The busiest hour's count: the top of the scale. */
  readonly max: number
  readonly labels: ReadonlyArray<{ readonly x: number; readonly text: string }>
}

/** Hours of the series, in order (every variation has one point per hour). */
export const hoursOf = (series: InsightsSeries): ReadonlyArray<string> => series.variations[0]?.points.map((p) => p.hour) ?? []

/** The count of `variationKey` in the `i`-th hour. */
const countAt = (series: InsightsSeries, variationKey: string, i: number): number =>
  series.variations.find((v) => v.variationKey === variationKey)?.points[i]?.count ?? 0

/** About this many hour labels, whatever the period: every hour of a day would not fit. */
const LABELS = 8

export const layout = (series: InsightsSeries, width: number, height: number): Chart => {
  const hours = hoursOf(series)
  const totals = hours.map((_, i) => series.variations.reduce((sum, v) => sum + (v.points[i]?.count ?? 0), 0))
  const max = Math.max(1, ...totals)
  const step = width / Math.max(1, hours.length)
  const bars = hours.map((hour, i): Bar => {
    let top = height
    const slices = series.variations.map((v): Slice => {
      const count = countAt(series, v.variationKey, i)
      const h = (count / max) * height
      top -= h
      return { variationKey: v.variationKey, count, y: top, height: h }
    })
    return { hour, x: i * step, width: Math.max(1, step * 0.8), total: totals[i]!, slices }
  })
  const every = Math.max(1, Math.ceil(hours.length / LABELS))
  const long = hours.length > 48
  const labels = hours.flatMap((hour, i) => (i % every === 0 ? [{ x: i * step, text: long ? `${hour.slice(5, 10)} ${hour.slice(11, 16)}` : hour.slice(11, 16) }] : []))
  return { bars, max, labels }
}
