import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { MAX_COUNT } from "../../src/domain/insights/ReportBounds.js"
import { type HourlyCount, InsightsRepository, type LastEvaluated } from "../../src/ports/InsightsRepository.js"
import { orFail } from "./SqlSupport.js"

/**
 * Insights in two tables (migration 0009): flagport_insights (one row per hour bucket and
 * variation) and flagport_flag_evaluations (last evaluation per flag and environment). Writes are
 * upserts that add or move forward, the same statement on SQLite and PostgreSQL, inside one
 * transaction. Adding saturates at MAX_COUNT: on PostgreSQL a BIGINT overflow would fail the
 * statement, and with it every later flush that touches the row.
 */

interface CountRow {
  readonly project_id: string
  readonly environment_key: string
  readonly flag_key: string
  readonly variation_key: string
  readonly hour: string
  readonly count: number | string
}

interface LastRow {
  readonly project_id: string
  readonly environment_key: string
  readonly flag_key: string
  readonly last_evaluated_at: string
}

/** Rows per statement: well under SQLite's 32766 bound parameters (6 per count row). */
const CHUNK = 500

const chunks = <A>(items: ReadonlyArray<A>): ReadonlyArray<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

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
        sql<CountRow>`SELECT project_id, environment_key, flag_key, variation_key, hour, count FROM flagport_insights
          WHERE project_id = ${projectId} AND environment_key = ${environmentKey} AND flag_key = ${flagKey}
            AND hour >= ${fromHour} AND hour <= ${toHour}
          ORDER BY hour, variation_key`
      ).pipe(
        Effect.map((rows) =>
          rows.map((r) => ({
            projectId: r.project_id,
            environmentKey: r.environment_key,
            flagKey: r.flag_key,
            variationKey: r.variation_key,
            hour: r.hour,
            // BIGINT comes back as a string from PostgreSQL; a row written above MAX_COUNT (by hand, or
            // before counts saturated) is shown as MAX_COUNT, the largest exact number.
            count: Math.min(Number(r.count), MAX_COUNT)
          }))
        )
      ),
    // One statement per batch, oldest hours first; on PostgreSQL rows another pruner holds are skipped.
    prune: (beforeHour, limit) =>
      orFail(
        sql<{ one: number }>`DELETE FROM flagport_insights
          WHERE (project_id, environment_key, flag_key, hour, variation_key) IN (
            SELECT project_id, environment_key, flag_key, hour, variation_key FROM flagport_insights
            WHERE hour < ${beforeHour} ORDER BY hour LIMIT ${Math.max(1, limit)}
            ${sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })})
          RETURNING 1 AS one`
      ).pipe(Effect.map((rows) => rows.length)),
    lastEvaluated: (projectId) =>
      orFail(
        sql<LastRow>`SELECT project_id, environment_key, flag_key, last_evaluated_at FROM flagport_flag_evaluations
          WHERE project_id = ${projectId} ORDER BY flag_key, environment_key`
      ).pipe(
        Effect.map((rows) =>
          rows.map((r) => ({ projectId: r.project_id, environmentKey: r.environment_key, flagKey: r.flag_key, at: r.last_evaluated_at }))
        )
      )
  })
})

export const layer = Layer.effect(InsightsRepository, make)
