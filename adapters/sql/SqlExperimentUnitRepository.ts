import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { ExperimentUnitRepository, type IngestBatch } from "../../src/ports/ExperimentUnitRepository.js"
import { collapseExposures } from "../../src/domain/experiments/Exposure.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"
import { makeAnalysisTotals } from "./SqlAnalysisTotals.js"
import { makeMetricArms } from "./SqlMetricArms.js"
import { makeUnitPage } from "./SqlUnitPages.js"
import { makeUnitMetrics, unitId } from "./SqlUnitMetrics.js"

/**
 * ExperimentUnitRepository over @effect/sql (tables in migrations/0026_experiment_units.ts), the
 * same statements on SQLite and PostgreSQL, inside the caller's transaction: the batches, one per
 * key, route and id (migrations/0029; `ON CONFLICT DO NOTHING RETURNING` says which are new), then the distinct variations (`ON CONFLICT DO NOTHING
 * RETURNING` says which are new to their unit), then the units' rows (the earliest exposure wins,
 * `variations_seen` adds the new ones). Rows are written sorted by experiment and unit, so two
 * concurrent writes on PostgreSQL lock shared rows in the same order and cannot deadlock.
 * Metric events are applied in the same call as exposures (SqlUnitMetrics.ts has that side, and
 * SqlMetricArms.ts the aggregate the results read; tables in migrations/0027).
 */

const UnitRowSql = Schema.Struct({
  experiment_id: Schema.String,
  unit: Schema.String,
  first_exposure_at: Schema.String,
  variation_key: Schema.String,
  variations_seen: SqlInteger
})
const decodeUnits = decodeRows(UnitRowSql, "flagport_experiment_units")
const decodeNew = decodeRows(Schema.Struct({ experiment_id: Schema.String, unit: Schema.String }), "flagport_experiment_unit_variations")
const decodeBatch = decodeRows(Schema.Struct({ key_id: Schema.String, route: Schema.String, batch_id: Schema.String }), "flagport_ingest_batches")
const decodeCounts = decodeRows(Schema.Struct({ variation_key: Schema.NullOr(Schema.String), n: SqlInteger }), "flagport_experiment_units")
const MetricRowSql = Schema.Struct({
  experiment_id: Schema.String,
  metric_key: Schema.String,
  unit: Schema.String,
  variation_key: Schema.String,
  variations_seen: SqlInteger,
  post_sum: Schema.Number,
  post_count: SqlInteger,
  pre_sum: Schema.Number,
  pre_count: SqlInteger
})
const decodeMetricRows = decodeRows(MetricRowSql, "flagport_experiment_unit_metrics")
const decodeCount = decodeRows(Schema.Struct({ n: SqlInteger }), "flagport_experiment_unit_events")


const batchKey = (b: { keyId: string; route: string; batchId: string }) => `${b.keyId}\u0000${b.route}\u0000${b.batchId}`

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const metrics = makeUnitMetrics(sql)
  const totals = makeAnalysisTotals(sql)
  // PostgreSQL: one statement per table and round, its rows as a few array parameters (unnest);
  // SQLite: multi-row inserts of at most 500 rows (one prepared statement, cached, for every full chunk).
  const chunks = metrics.chunks

  const newVariations = (rows: ReadonlyArray<{ experimentId: string; unit: string; variationKey: string }>) =>
    orFail(sql.onDialectOrElse({
      pg: () =>
        sql`INSERT INTO flagport_experiment_unit_variations (experiment_id, unit, variation_key)
          SELECT * FROM unnest(${rows.map((r) => r.experimentId)}::text[], ${rows.map((r) => r.unit)}::text[], ${rows.map((r) => r.variationKey)}::text[])
          ON CONFLICT DO NOTHING RETURNING experiment_id, unit`,
      orElse: () =>
        sql`INSERT INTO flagport_experiment_unit_variations ${sql.insert(rows.map((r) => ({
          experiment_id: r.experimentId,
          unit: r.unit,
          variation_key: r.variationKey
        })))} ON CONFLICT DO NOTHING RETURNING experiment_id, unit`
    })).pipe(Effect.flatMap(decodeNew))

  const upsertUnits = (rows: ReadonlyArray<{ experimentId: string; unit: string; firstAt: string; variationKey: string; added: number }>) =>
    orFail(sql`INSERT INTO flagport_experiment_units ${sql.onDialectOrElse({
      pg: () =>
        sql`(experiment_id, unit, first_exposure_at, variation_key, variations_seen)
          SELECT * FROM unnest(${rows.map((r) => r.experimentId)}::text[], ${rows.map((r) => r.unit)}::text[], ${rows.map((r) => r.firstAt)}::text[],
            ${rows.map((r) => r.variationKey)}::text[], ${rows.map((r) => r.added)}::int[])`,
      orElse: () =>
        sql`${sql.insert(rows.map((r) => ({
          experiment_id: r.experimentId,
          unit: r.unit,
          first_exposure_at: r.firstAt,
          variation_key: r.variationKey,
          variations_seen: r.added
        })))}`
    })}
      ON CONFLICT (experiment_id, unit) DO UPDATE SET
        variations_seen = flagport_experiment_units.variations_seen + excluded.variations_seen,
        variation_key = CASE WHEN excluded.first_exposure_at < flagport_experiment_units.first_exposure_at
          THEN excluded.variation_key ELSE flagport_experiment_units.variation_key END,
        first_exposure_at = CASE WHEN excluded.first_exposure_at < flagport_experiment_units.first_exposure_at
          THEN excluded.first_exposure_at ELSE flagport_experiment_units.first_exposure_at END`)

  const insertBatches = (rows: ReadonlyArray<IngestBatch>) =>
    orFail(sql`INSERT INTO flagport_ingest_batches ${sql.onDialectOrElse({
      pg: () =>
        sql`(key_id, route, batch_id, received_at)
          SELECT * FROM unnest(${rows.map((b) => b.keyId)}::text[], ${rows.map((b) => b.route)}::text[], ${rows.map((b) => b.batchId)}::text[], ${rows.map((b) => b.receivedAt)}::text[])`,
      orElse: () =>
        sql`${sql.insert(rows.map((b) => ({
          key_id: b.keyId,
          route: b.route,
          batch_id: b.batchId,
          received_at: b.receivedAt
        })))}`
    })} ON CONFLICT DO NOTHING RETURNING key_id, route, batch_id`).pipe(Effect.flatMap(decodeBatch))

  return ExperimentUnitRepository.of({
    // ON CONFLICT DO NOTHING: a batch another transaction holds (PostgreSQL) waits for it, then is
    // not returned, so two processes acknowledging one batch count it once without an error.
    claimBatches: (batches) =>
      Effect.gen(function* () {
        const distinct = new Map<string, IngestBatch>()
        for (const b of batches) if (!distinct.has(batchKey(b))) distinct.set(batchKey(b), b)
        const fresh = new Set<string>()
        const sorted = [...distinct.values()].sort((a, b) => (batchKey(a) < batchKey(b) ? -1 : batchKey(a) > batchKey(b) ? 1 : 0))
        for (const chunk of chunks(sorted)) {
          for (const row of yield* insertBatches(chunk)) fresh.add(batchKey({ keyId: row.key_id, route: row.route, batchId: row.batch_id }))
        }
        // The first occurrence of a fresh batch is fresh; a repeat in the same list is not.
        return batches.map((b) => fresh.delete(batchKey(b)))
      }),
    applyItems: (exposures, events) =>
      Effect.gen(function* () {
        const pairs = [...exposures, ...events]
        // The analyses' locks (SqlAnalysisTotals.ts says why): they also make two transactions
        // writing one unit take turns, so the units need no locks of their own.
        yield* totals.lock(pairs.map((p) => p.experimentId))
        const before = yield* metrics.unitStates(pairs)
        const { units, variations } = collapseExposures(exposures)
        const added = new Map<string, number>()
        for (const chunk of chunks(variations)) {
          for (const row of yield* newVariations(chunk)) {
            const id = unitId(row.experiment_id, row.unit)
            added.set(id, (added.get(id) ?? 0) + 1)
          }
        }
        for (const chunk of chunks(units)) {
          yield* upsertUnits(chunk.map((u) => ({ ...u, added: added.get(unitId(u.experimentId, u.unit)) ?? 0 })))
        }
        // What the upsert above made of each touched row (the same rule, computed here rather than
        // read back): a unit whose first exposure moved, or is new, has its raw events counted again.
        const after = new Map(before)
        for (const u of units) {
          const id = unitId(u.experimentId, u.unit)
          const was = before.get(id)
          const firstAt = Date.parse(u.firstAt)
          const seen = (was?.variationsSeen ?? 0) + (added.get(id) ?? 0)
          after.set(id, was === undefined || firstAt < was.firstAt ? { firstAt, variationKey: u.variationKey, variationsSeen: seen } : { ...was, variationsSeen: seen })
        }
        yield* metrics.apply(events, before, after)
      }),
    metricRows: (experimentId) =>
      orFail(sql`SELECT experiment_id, metric_key, unit, variation_key, variations_seen, post_sum, post_count, pre_sum, pre_count
        FROM flagport_experiment_unit_metrics WHERE experiment_id = ${experimentId} AND (post_count > 0 OR pre_count > 0)
        ORDER BY metric_key, unit`).pipe(
        Effect.flatMap(decodeMetricRows),
        Effect.map((rows) =>
          rows.map((r) => ({
            experimentId: r.experiment_id,
            metricKey: r.metric_key,
            unit: r.unit,
            variationKey: r.variation_key,
            variationsSeen: r.variations_seen,
            postSum: r.post_sum,
            postCount: r.post_count,
            preSum: r.pre_sum,
            preCount: r.pre_count
          })))
      ),
    metricArms: makeMetricArms(sql),
    analysisTotals: totals.read,
    unitPage: makeUnitPage(sql),
    pruneEvents: (horizon) =>
      orFail(sql`DELETE FROM flagport_experiment_unit_events
        WHERE EXISTS (SELECT 1 FROM flagport_experiment_units u WHERE u.experiment_id = flagport_experiment_unit_events.experiment_id
            AND u.unit = flagport_experiment_unit_events.unit AND u.first_exposure_at < ${new Date(horizon).toISOString()})
          OR (at + pre_window_ms < ${horizon} AND NOT EXISTS (SELECT 1 FROM flagport_experiment_units u
            WHERE u.experiment_id = flagport_experiment_unit_events.experiment_id AND u.unit = flagport_experiment_unit_events.unit))
        RETURNING 1 AS n`).pipe(Effect.flatMap(decodeCount), Effect.map((rows) => rows.length)),
    units: (experimentId) =>
      orFail(sql`SELECT experiment_id, unit, first_exposure_at, variation_key, variations_seen FROM flagport_experiment_units
        WHERE experiment_id = ${experimentId} ORDER BY unit`).pipe(
        Effect.flatMap(decodeUnits),
        Effect.map((rows) =>
          rows.map((r) => ({
            experimentId: r.experiment_id,
            unit: r.unit,
            firstExposureAt: r.first_exposure_at,
            variationKey: r.variation_key,
            variationsSeen: r.variations_seen
          })))
      ),
    exposureCounts: (experimentId) =>
      // Both read the index on (experiment_id, variations_seen, variation_key) alone: the units
      // seen in one variation are a range in variation order, those seen in several a small one.
      orFail(Effect.all([
        sql`SELECT variation_key, COUNT(*) AS n FROM flagport_experiment_units
          WHERE experiment_id = ${experimentId} AND variations_seen = 1 GROUP BY variation_key ORDER BY variation_key`,
        sql`SELECT NULL AS variation_key, COUNT(*) AS n FROM flagport_experiment_units WHERE experiment_id = ${experimentId} AND variations_seen > 1`
      ])).pipe(
        Effect.flatMap(([single, several]) => Effect.all([decodeCounts(single), decodeCounts(several)])),
        Effect.map(([single, several]) => ({
          perVariation: single.flatMap((r) => (r.variation_key === null ? [] : [{ variationKey: r.variation_key, units: r.n }])),
          inSeveralVariations: several[0]?.n ?? 0
        }))
      ),
    removeExperiment: (experimentId) =>
      Effect.gen(function* () {
        yield* totals.lock([experimentId])
        yield* orFail(Effect.all([
          sql`DELETE FROM flagport_experiment_unit_variations WHERE experiment_id = ${experimentId}`,
          sql`DELETE FROM flagport_experiment_units WHERE experiment_id = ${experimentId}`,
          sql`DELETE FROM flagport_experiment_unit_metrics WHERE experiment_id = ${experimentId}`,
          sql`DELETE FROM flagport_experiment_unit_events WHERE experiment_id = ${experimentId}`
        ], { discard: true }))
        // What the triggers left of its totals (rows counting nothing).
        yield* totals.remove(experimentId)
      }),
    pruneBatches: (before) =>
      orFail(sql`DELETE FROM flagport_ingest_batches WHERE received_at < ${before} RETURNING key_id, route, batch_id`).pipe(
        Effect.flatMap(decodeBatch),
        Effect.map((rows) => rows.length)
      )
  })
})

/** The SQL ExperimentUnitRepository; needs the SqlClient of the storage layer (migrations applied). */
export const layer: Layer.Layer<ExperimentUnitRepository, never, SqlClient.SqlClient> = Layer.effect(ExperimentUnitRepository, make)
