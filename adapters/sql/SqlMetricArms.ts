import type { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { MeasuredMetric, MetricArmTotals } from "../../src/domain/experiments/UnitMetrics.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/**
 * The aggregate the results analyse (UnitMetrics.ts `armTotals` is its definition), one query per
 * metric over its rows (`flagport_experiment_unit_metrics`, keyed by experiment, metric and unit,
 * each row carrying its unit's variation and variations seen so no join is needed), and the units
 * per variation from the unit rows (an index covers it). A unit without events counts in `n` only.
 */

const Sums = Schema.Struct({
  variation_key: Schema.String,
  total: Schema.NullOr(Schema.Number),
  total_squares: Schema.NullOr(Schema.Number),
  pre_total: Schema.NullOr(Schema.Number),
  pre_squares: Schema.NullOr(Schema.Number),
  cross_total: Schema.NullOr(Schema.Number)
})
const decodeSums = decodeRows(Sums, "flagport_experiment_unit_metrics")
/** A sum as JavaScript's: PostgreSQL may answer -0 for a sum of products that cancel. */
const total = (value: number | null | undefined): number => (value === null || value === undefined || value === 0 ? 0 : value)

const decodeUnits = decodeRows(Schema.Struct({ variation_key: Schema.String, n: SqlInteger }), "flagport_experiment_units")

export const makeMetricArms = (sql: SqlClient.SqlClient) =>
  Effect.fnUntraced(function* (experimentId: string, metric: MeasuredMetric) {
    // A unit's metric (y) and covariate (x): a conversion is whether it converted, a mean its sum
    // (doubles on both backends: PostgreSQL would sum a plain 1.0 as NUMERIC).
    const [y, x] = metric.kind === "conversion"
      ? [sql.literal("CAST(CASE WHEN post_count > 0 THEN 1 ELSE 0 END AS DOUBLE PRECISION)"), sql.literal("CAST(CASE WHEN pre_count > 0 THEN 1 ELSE 0 END AS DOUBLE PRECISION)")]
      : [sql.literal("post_sum"), sql.literal("pre_sum")]
    const units = yield* orFail(sql`SELECT variation_key, COUNT(*) AS n FROM flagport_experiment_units
      WHERE experiment_id = ${experimentId} AND variations_seen = 1 GROUP BY variation_key`).pipe(Effect.flatMap(decodeUnits))
    const sums = yield* orFail(sql`SELECT variation_key, SUM(y) AS total, SUM(y * y) AS total_squares, SUM(x) AS pre_total,
        SUM(x * x) AS pre_squares, SUM(x * y) AS cross_total
      FROM (SELECT variation_key, ${y} AS y, ${x} AS x FROM flagport_experiment_unit_metrics
        WHERE experiment_id = ${experimentId} AND metric_key = ${metric.key} AND variations_seen = 1) AS unit_values
      GROUP BY variation_key`).pipe(Effect.flatMap(decodeSums))
    const byVariation = new Map(sums.map((s) => [s.variation_key, s]))
    return units
      .map((u): MetricArmTotals => {
        const s = byVariation.get(u.variation_key)
        return {
          variationKey: u.variation_key,
          moments: {
            n: u.n,
            sum: total(s?.total),
            sumSquares: total(s?.total_squares),
            preSum: total(s?.pre_total),
            preSumSquares: total(s?.pre_squares),
            crossSum: total(s?.cross_total)
          }
        }
      })
      .sort((a, b) => (a.variationKey < b.variationKey ? -1 : a.variationKey > b.variationKey ? 1 : 0))
  })
