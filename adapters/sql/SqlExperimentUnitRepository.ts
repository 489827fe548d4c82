import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { ExperimentUnitRepository, type IngestBatch } from "../../src/ports/ExperimentUnitRepository.js"
import { collapseExposures } from "../../src/domain/experiments/Exposure.js"
import { decodeRows, IdRow, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"
import { makeAnalysisTotals } from "./SqlAnalysisTotals.js"
import { makeMetricArms } from "./SqlMetricArms.js"
import { makeUnitPage } from "./SqlUnitPages.js"
import { jsonRows, makeUnitMetrics, unitId } from "./SqlUnitMetrics.js"

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
const decodeIds = decodeRows(IdRow, "flagport_experiment_units")

/** `prefix` as a LIKE pattern matching the ids that start with it (escaped with `\`). */
const startingWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`


const batchKey = (b: { keyId: string; route: string; batchId: string }) => `${b.keyId}\u0000${b.route}\u0000${b.batchId}`

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const metrics = makeUnitMetrics(sql)
  const totals = makeAnalysisTotals(sql)

  /** Every unit and metric row of the analyses, then what the triggers left of their totals (rows counting nothing). */
  const removeAll = (analysisIds: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      if (analysisIds.length === 0) return
      // All their locks at once (sorted), as a write of several analyses takes them.
      yield* totals.lock(analysisIds)
      yield* orFail(Effect.all([
        sql`DELETE FROM flagport_experiment_unit_variations WHERE ${sql.in("experiment_id", analysisIds)}`,
        sql`DELETE FROM flagport_experiment_units WHERE ${sql.in("experiment_id", analysisIds)}`,
        sql`DELETE FROM flagport_experiment_unit_metrics WHERE ${sql.in("experiment_id", analysisIds)}`,
        sql`DELETE FROM flagport_experiment_unit_events WHERE ${sql.in("experiment_id", analysisIds)}`
      ], { discard: true }))
      for (const id of analysisIds) yield* totals.remove(id)
    })
  // One statement per table and round: its rows as a few array parameters on PostgreSQL (unnest),
  // as one JSON parameter on SQLite (json_each; SqlUnitMetrics.ts says why).
  const chunks = metrics.chunks

  /**
   * Inserts variations seen. Of a stored unit (`stored`): `ON CONFLICT DO NOTHING RETURNING` answers
   * those new to it. Of a unit not stored before: a plain insert (it has no variations stored, and
   * the analysis lock held since its absence was read keeps any other writer of it waiting), which
   * spares the database a speculative insertion per row.
   */
  const newVariations = (rows: ReadonlyArray<{ experimentId: string; unit: string; variationKey: string }>, stored: boolean) =>
    orFail(sql`INSERT INTO flagport_experiment_unit_variations (experiment_id, unit, variation_key) ${sql.onDialectOrElse({
      pg: () =>
        sql`SELECT * FROM unnest(${rows.map((r) => r.experimentId)}::text[], ${rows.map((r) => r.unit)}::text[], ${rows.map((r) => r.variationKey)}::text[])`,
      orElse: () =>
        sql`SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(${jsonRows(rows.map((r) => [r.experimentId, r.unit, r.variationKey]))}) WHERE true`
    })} ${stored ? sql`ON CONFLICT DO NOTHING RETURNING experiment_id, unit` : sql``}`).pipe(Effect.flatMap(decodeNew))

  /**
   * Writes the units' rows: those stored before (`stored`) by an upsert (the earliest exposure wins,
   * `variations_seen` adds the new ones), the others by a plain insert (as for their variations above).
   */
  const upsertUnits = (rows: ReadonlyArray<{ experimentId: string; unit: string; firstAt: string; variationKey: string; added: number }>, stored: boolean) =>
    orFail(sql`INSERT INTO flagport_experiment_units ${sql.onDialectOrElse({
      pg: () =>
        sql`(experiment_id, unit, first_exposure_at, variation_key, variations_seen)
          SELECT * FROM unnest(${rows.map((r) => r.experimentId)}::text[], ${rows.map((r) => r.unit)}::text[], ${rows.map((r) => r.firstAt)}::text[],
            ${rows.map((r) => r.variationKey)}::text[], ${rows.map((r) => r.added)}::int[])`,
      orElse: () =>
        sql`(experiment_id, unit, first_exposure_at, variation_key, variations_seen)
          SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4
          FROM json_each(${jsonRows(rows.map((r) => [r.experimentId, r.unit, r.firstAt, r.variationKey, r.added]))}) WHERE true`
    })}
      ${stored ? sql`ON CONFLICT (experiment_id, unit) DO UPDATE SET
        variations_seen = flagport_experiment_units.variations_seen + excluded.variations_seen,
        variation_key = CASE WHEN excluded.first_exposure_at < flagport_experiment_units.first_exposure_at
          THEN excluded.variation_key ELSE flagport_experiment_units.variation_key END,
        first_exposure_at = CASE WHEN excluded.first_exposure_at < flagport_experiment_units.first_exposure_at
          THEN excluded.first_exposure_at ELSE flagport_experiment_units.first_exposure_at END` : sql``}`)

  const insertBatches = (rows: ReadonlyArray<IngestBatch>) =>
    orFail(sql`INSERT INTO flagport_ingest_batches ${sql.onDialectOrElse({
      pg: () =>
        sql`(key_id, route, batch_id, received_at)
          SELECT * FROM unnest(${rows.map((b) => b.keyId)}::text[], ${rows.map((b) => b.route)}::text[], ${rows.map((b) => b.batchId)}::text[], ${rows.map((b) => b.receivedAt)}::text[])`,
      orElse: () =>
        sql`(key_id, route, batch_id, received_at)
          SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3
          FROM json_each(${jsonRows(rows.map((b) => [b.keyId, b.route, b.batchId, b.receivedAt]))}) WHERE true`
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
        // A unit without a row has no variations stored either (both are written here, together, and
        // removed together): all of its variations are new, so only those of stored units are asked
        // back (RETURNING) to tell which are.
        const added = new Map<string, number>()
        const ofStored: Array<(typeof variations)[number]> = []
        const ofNew: Array<(typeof variations)[number]> = []
        for (const v of variations) {
          const id = unitId(v.experimentId, v.unit)
          if (before.has(id)) ofStored.push(v)
          else {
            ofNew.push(v)
            added.set(id, (added.get(id) ?? 0) + 1)
          }
        }
        for (const chunk of chunks(ofNew)) yield* newVariations(chunk, false)
        for (const chunk of chunks(ofStored)) {
          for (const row of yield* newVariations(chunk, true)) {
            const id = unitId(row.experiment_id, row.unit)
            added.set(id, (added.get(id) ?? 0) + 1)
          }
        }
        const storedUnits: Array<(typeof units)[number] & { added: number }> = []
        const newUnits: Array<(typeof units)[number] & { added: number }> = []
        for (const u of units) {
          const id = unitId(u.experimentId, u.unit)
          ;(before.has(id) ? storedUnits : newUnits).push({ ...u, added: added.get(id) ?? 0 })
        }
        for (const chunk of chunks(newUnits)) yield* upsertUnits(chunk, false)
        for (const chunk of chunks(storedUnits)) yield* upsertUnits(chunk, true)
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
    removeExperiment: (experimentId) => removeAll([experimentId]),
    removeAnalyses: (prefix) =>
      Effect.gen(function* () {
        const pattern = startingWith(prefix)
        const found = yield* orFail(sql`SELECT experiment_id AS id FROM flagport_experiment_units WHERE experiment_id LIKE ${pattern} ESCAPE '\\'
          UNION SELECT analysis_id AS id FROM flagport_analysis_units WHERE analysis_id LIKE ${pattern} ESCAPE '\\'
          UNION SELECT experiment_id AS id FROM flagport_experiment_unit_events WHERE experiment_id LIKE ${pattern} ESCAPE '\\'`).pipe(Effect.flatMap(decodeIds))
        yield* removeAll(found.map((row) => row.id))
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
