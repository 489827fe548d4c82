import type { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { MetricFigures } from "../../src/domain/experiments/UnitMetrics.js"
import type { UnitExportRow } from "../../src/domain/experiments/UnitsCsv.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/**
 * A page of an experiment's unit rows with their metric figures (what `units.csv` streams): the
 * units after a unit in key order (the primary key's range, so every page costs the same however
 * far in), then, per metric, its rows for that page's range of units (its primary key's range).
 */

const UnitSql = Schema.Struct({ unit: Schema.String, first_exposure_at: Schema.String, variation_key: Schema.String, variations_seen: SqlInteger })
const decodeUnits = decodeRows(UnitSql, "flagport_experiment_units")
const FiguresSql = Schema.Struct({ unit: Schema.String, post_sum: Schema.Number, post_count: SqlInteger, pre_sum: Schema.Number, pre_count: SqlInteger })
const decodeFigures = decodeRows(FiguresSql, "flagport_experiment_unit_metrics")

export const makeUnitPage = (sql: SqlClient.SqlClient) =>
  Effect.fnUntraced(function* (experimentId: string, metricKeys: ReadonlyArray<string>, after: string | null, limit: number) {
    const from = after === null ? sql.literal("") : sql`AND unit > ${after}`
    const units = yield* orFail(sql`SELECT unit, first_exposure_at, variation_key, variations_seen FROM flagport_experiment_units
      WHERE experiment_id = ${experimentId} ${from} ORDER BY unit LIMIT ${limit}`).pipe(Effect.flatMap(decodeUnits))
    if (units.length === 0) return []
    const [first, last] = [units[0]!.unit, units[units.length - 1]!.unit]
    const byUnit = new Map(units.map((u) => [u.unit, new Map<string, MetricFigures>()]))
    for (const metricKey of metricKeys) {
      const rows = yield* orFail(sql`SELECT unit, post_sum, post_count, pre_sum, pre_count FROM flagport_experiment_unit_metrics
        WHERE experiment_id = ${experimentId} AND metric_key = ${metricKey} AND unit >= ${first} AND unit <= ${last}`).pipe(Effect.flatMap(decodeFigures))
      for (const r of rows) byUnit.get(r.unit)?.set(metricKey, { postSum: r.post_sum, postCount: r.post_count, preSum: r.pre_sum, preCount: r.pre_count })
    }
    return units.map((u): UnitExportRow => ({
      experimentId,
      unit: u.unit,
      firstExposureAt: u.first_exposure_at,
      variationKey: u.variation_key,
      variationsSeen: u.variations_seen,
      figures: byUnit.get(u.unit)!
    }))
  })
