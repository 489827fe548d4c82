import * as Arr from "effect/Array"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { MAX_COUNT } from "../../src/domain/insights/ReportBounds.js"
import { type HourlyCount, InsightsRepository, type LastEvaluated } from "../../src/ports/InsightsRepository.js"
import { decodeRows } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/**
 * Insights in two tables (migration 0009): flagport_insights (one row per hour bucket and
 * variation) and flagport_flag_evaluations (last evaluation per flag and environment). Writes are
 * upserts that add or move forward, the same statement on SQLite and PostgreSQL, inside one
 * transaction. Adding saturates at MAX_COUNT: on PostgreSQL a BIGINT overflow would fail the
 * statement, and with it every later flush that touches the row.
 */

const CountRow = Schema.Struct({
  project_id: Schema.String,
  environment_key: Schema.String,
  flag_key: Schema.String,
  variation_key: Schema.String,
  hour: Schema.String,
  // BIGINT: a string of digits from PostgreSQL, possibly above 2^53 (then shown as MAX_COUNT).
  count: Schema.Union(Schema.Number, Schema.NumberFromString)
})

const LastRow = Schema.Struct({
  project_id: Schema.String,
  environment_key: Schema.String,
  flag_key: Schema.String,
  last_evaluated_at: Schema.String
})

const decodeCounts = decodeRows(CountRow, "flagport_insights")
const decodeLast = decodeRows(LastRow, "flagport_flag_evaluations")
const decodeDeleted = decodeRows(Schema.Struct({ one: Schema.Number }), "flagport_insights")

/** Rows per statement: well under SQLite's 32766 bound parameters (6 per count row). */
const CHUNK = 500

const chunks = <A>(items: ReadonlyArray<A>) => Arr.chunksOf(items, CHUNK)

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A literal, not a parameter: PostgreSQL then reads it as a BIGINT, as the column.
  const MAX = sql.literal(String(MAX_COUNT))

  const addCounts = (rows: ReadonlyArray<HourlyCount>) =>
    sql`INSERT INTO flagport_insights ${sql.insert(rows.map((r) => ({
      project_id: r.projectId,
      environment_key: r.environmentKey,
      flag_key: r.flagKey,
      hour: r.hour,
      variation_key: r.variationKey,
      count: r.count
    })))}
      ON CONFLICT (project_id, environment_key, flag_key, hour, variation_key)
      DO UPDATE SET count = CASE
        WHEN flagport_insights.count > ${MAX} - excluded.count
          THEN CASE WHEN flagport_insights.count > ${MAX} THEN flagport_insights.count ELSE ${MAX} END
        ELSE flagport_insights.count + excluded.count END`

  const moveLast = (rows: ReadonlyArray<LastEvaluated>) =>
    sql`INSERT INTO flagport_flag_evaluations ${sql.insert(rows.map((r) => ({
      project_id: r.projectId,
      environment_key: r.environmentKey,
      flag_key: r.flagKey,
      last_evaluated_at: r.at
    })))}
      ON CONFLICT (project_id, environment_key, flag_key)
      DO UPDATE SET last_evaluated_at = CASE
        WHEN excluded.last_evaluated_at > flagport_flag_evaluations.last_evaluated_at THEN excluded.last_evaluated_at
        ELSE flagport_flag_evaluations.last_evaluated_at END`

  return InsightsRepository.of({
    add: (counts, lastEvaluated) =>
      counts.length === 0 && lastEvaluated.length === 0
        ? Effect.void
        : orFail(
          sql.withTransaction(
            Effect.gen(function* () {
              for (const chunk of chunks(counts)) yield* addCounts(chunk)
              for (const chunk of chunks(lastEvaluated)) yield* moveLast(chunk)
            })
          )
        ),
    series: (projectId, environmentKey, flagKey, fromHour, toHour) =>
      orFail(
        sql`SELECT project_id, environment_key, flag_key, variation_key, hour, count FROM flagport_insights
          WHERE project_id = ${projectId} AND environment_key = ${environmentKey} AND flag_key = ${flagKey}
            AND hour >= ${fromHour} AND hour <= ${toHour}
          ORDER BY hour, variation_key`
      ).pipe(
        Effect.flatMap(decodeCounts),
        Effect.map((rows) =>
          rows.map((r) => ({
            projectId: r.project_id,
            environmentKey: r.environment_key,
            flagKey: r.flag_key,
            variationKey: r.variation_key,
            hour: r.hour,
            // A row written above MAX_COUNT (by hand, or before counts saturated) is shown as
            // MAX_COUNT, the largest exact number.
            count: Math.min(r.count, MAX_COUNT)
          }))
        )
      ),
    // One statement per batch, oldest hours first; on PostgreSQL rows another pruner holds are skipped.
    prune: (beforeHour, limit) =>
      orFail(
        sql`DELETE FROM flagport_insights
          WHERE (project_id, environment_key, flag_key, hour, variation_key) IN (
            SELECT project_id, environment_key, flag_key, hour, variation_key FROM flagport_insights
            WHERE hour < ${beforeHour} ORDER BY hour LIMIT ${Math.max(1, limit)}
            ${sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })})
          RETURNING 1 AS one`
      ).pipe(Effect.flatMap(decodeDeleted), Effect.map((rows) => rows.length)),
    lastEvaluated: (projectId) =>
      orFail(
        sql`SELECT project_id, environment_key, flag_key, last_evaluated_at FROM flagport_flag_evaluations
          WHERE project_id = ${projectId} ORDER BY flag_key, environment_key`
      ).pipe(
        Effect.flatMap(decodeLast),
        Effect.map((rows) =>
          rows.map((r) => ({ projectId: r.project_id, environmentKey: r.environment_key, flagKey: r.flag_key, at: r.last_evaluated_at }))
        )
      )
  })
})

export const layer = Layer.effect(InsightsRepository, make)
