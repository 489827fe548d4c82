/**
 * The per-unit rows of an experiment as CSV (`GET .../experiments/{key}/units.csv`, for a
 * warehouse): one line per exposed unit, in unit order, RFC 4180 quoting. Columns: `unit`,
 * `first_exposure_at`, `variation`, `variations_seen`, then per metric (in the experiment's order)
 * `<key>` (the unit's value: a conversion 0 or 1, a mean the sum after exposure) and
 * `<key>_covariate` (the same before the first exposure, CUPED's covariate).
 */
import type { UnitRow } from "./Exposure.js"
import { type MeasuredMetric, type MetricFigures, NO_FIGURES, unitValues } from "./UnitMetrics.js"

/** A unit's row with its figures per metric key (a metric without events: none). */
export interface UnitExportRow extends UnitRow {
  readonly figures: ReadonlyMap<string, MetricFigures>
}

/** A field as RFC 4180 wants it: quoted when it holds a comma, a quote or a line break. */
export const csvField = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replaceAll("\"", "\"\"")}"` : text)

export const csvHeader = (metrics: ReadonlyArray<MeasuredMetric>): string =>
  [
    "unit",
    "first_exposure_at",
    "variation",
    "variations_seen",
    ...metrics.flatMap((m) => [csvField(m.key), csvField(`${m.key}_covariate`)])
  ].join(",") + "\r\n"

export const csvLine = (row: UnitExportRow, metrics: ReadonlyArray<MeasuredMetric>): string =>
  [
    csvField(row.unit),
    row.firstExposureAt,
    csvField(row.variationKey),
    String(row.variationsSeen),
    ...metrics.flatMap((m) => {
      const { covariate, value } = unitValues(row.figures.get(m.key) ?? NO_FIGURES, m.kind)
      return [String(value), String(covariate)]
    })
  ].join(",") + "\r\n"
