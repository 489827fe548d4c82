import type { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { AnalysisTotals } from "../../src/domain/experiments/AnalysisTotals.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/**
 * The running totals of analyses (tables and the triggers that keep them in
 * migrations/0032_analysis_totals.ts; domain/experiments/AnalysisTotals.ts is their definition):
 * reading one analysis is two range reads of a few rows each, however many units it has.
 *
 * On PostgreSQL every transaction that changes an analysis's unit or metric rows first takes that
 * analysis's advisory lock (`lock`, sorted; the only lock a unit write takes): the triggers update the same
 * few totals rows from several statements, and two transactions doing so in different orders
 * would deadlock. Writers of one analysis in several processes take turns (within a process the
 * group commit writes one round at a time anyway). SQLite has one writer.
 */

/** The first key of the two-key advisory locks (a space apart from the units' one-key locks): "FLPA". */
const ANALYSIS_LOCK_CLASS = 0x464c5041

/** A 31-bit FNV-1a hash of an analysis id (a collision only makes two analyses take turns). */
const lockKey = (id: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193)
  return hash >>> 1
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const decodeVariations = decodeRows(
  Schema.Struct({ variation_key: Schema.String, units: SqlInteger, units_in_several: SqlInteger }),
  "flagport_analysis_units"
)
const decodeMetrics = decodeRows(
  Schema.Struct({
    metric_key: Schema.String,
    variation_key: Schema.String,
    converted: SqlInteger,
    pre_converted: SqlInteger,
    both_converted: SqlInteger,
    post_sum: Schema.Number,
    post_squares: Schema.Number,
    pre_sum: Schema.Number,
    pre_squares: Schema.Number,
    cross_sum: Schema.Number
  }),
  "flagport_analysis_metric_totals"
)

export const makeAnalysisTotals = (sql: SqlClient.SqlClient) => {
  /** Takes the advisory locks of the analyses (PostgreSQL; in the caller's transaction, until it ends). */
  const lock = (analysisIds: Iterable<string>) => {
    const keys = [...new Set([...analysisIds].map(lockKey))].sort((a, b) => a - b)
    if (keys.length === 0) return Effect.void
    // The keys are integers computed here, not client text: inlined as literals.
    return sql.onDialectOrElse({
      pg: () =>
        orFail(sql.unsafe(`SELECT pg_advisory_xact_lock(${ANALYSIS_LOCK_CLASS}, k) FROM unnest(ARRAY[${keys.join(",")}]::int[]) AS k`)).pipe(Effect.asVoid),
      orElse: () => Effect.void
    })
  }

  const read = (analysisId: string): Effect.Effect<AnalysisTotals, StorageError> =>
    Effect.map(
      Effect.all([
        orFail(sql`SELECT variation_key, units, units_in_several FROM flagport_analysis_units
          WHERE analysis_id = ${analysisId} AND (units <> 0 OR units_in_several <> 0) `).pipe(Effect.flatMap(decodeVariations)),
        orFail(sql`SELECT metric_key, variation_key, converted, pre_converted, both_converted, post_sum, post_squares, pre_sum, pre_squares, cross_sum
          FROM flagport_analysis_metric_totals WHERE analysis_id = ${analysisId} `).pipe(Effect.flatMap(decodeMetrics))
      ]),
      // Ordered here, by code unit: the database's collation may order keys otherwise.
      ([variations, metrics]): AnalysisTotals => ({
        variations: [...variations].sort((a, b) => byKey(a.variation_key, b.variation_key)).map((v) => ({ variationKey: v.variation_key, units: v.units, unitsInSeveral: v.units_in_several })),
        metrics: [...metrics].sort((a, b) => byKey(a.metric_key, b.metric_key) || byKey(a.variation_key, b.variation_key)).map((m) => ({
          metricKey: m.metric_key,
          variationKey: m.variation_key,
          converted: m.converted,
          preConverted: m.pre_converted,
          bothConverted: m.both_converted,
          postSum: m.post_sum,
          postSquares: m.post_squares,
          preSum: m.pre_sum,
          preSquares: m.pre_squares,
          crossSum: m.cross_sum
        }))
      })
    )

  /** Forgets the analysis's totals (its unit and metric rows were deleted in the same transaction). */
  const remove = (analysisId: string) =>
    orFail(Effect.all([
      sql`DELETE FROM flagport_analysis_units WHERE analysis_id = ${analysisId}`,
      sql`DELETE FROM flagport_analysis_metric_totals WHERE analysis_id = ${analysisId}`
    ], { discard: true }))

  return { lock, read, remove }
}
