import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The per-unit metric rows of experiments (adapters/sql/SqlUnitMetrics.ts): one row per
 * experiment, metric and exposed unit with the post-exposure sum and count and the CUPED
 * covariate's (doubles and 64-bit counts: domain/experiments/UnitMetrics.ts says why nothing
 * overflows), the unit's variation and variations seen copied from its unit row so the aggregate
 * per metric reads one table in key order. And the metric events kept raw while a late exposure
 * could still change what they count for (about a day; pruned by the server's retention worker).
 * Instants of raw events are epoch milliseconds.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // SQLite keeps a WITHOUT ROWID table in its primary key's order: a metric's rows are one range.
  const clustered = sql.onDialectOrElse({ sqlite: () => sql.literal("WITHOUT ROWID"), orElse: () => sql.literal("") })
  const serial = sql.onDialectOrElse({ pg: () => sql.literal("BIGSERIAL PRIMARY KEY"), orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT") })
  yield* sql`CREATE TABLE flagport_experiment_unit_metrics (
    experiment_id TEXT NOT NULL,
    metric_key TEXT NOT NULL,
    unit TEXT NOT NULL,
    variation_key TEXT NOT NULL,
    variations_seen INTEGER NOT NULL,
    post_sum DOUBLE PRECISION NOT NULL,
    post_count BIGINT NOT NULL,
    pre_sum DOUBLE PRECISION NOT NULL,
    pre_count BIGINT NOT NULL,
    PRIMARY KEY (experiment_id, metric_key, unit)
  ) ${clustered}`
  yield* sql`CREATE TABLE flagport_experiment_unit_events (
    seq ${serial},
    experiment_id TEXT NOT NULL,
    metric_key TEXT NOT NULL,
    unit TEXT NOT NULL,
    at BIGINT NOT NULL,
    value DOUBLE PRECISION NOT NULL,
    window_ms BIGINT,
    pre_window_ms BIGINT NOT NULL
  )`
  // The units per variation of the aggregate, read from this index alone.
  yield* sql`CREATE INDEX flagport_experiment_units_variation ON flagport_experiment_units (experiment_id, variations_seen, variation_key)`
  yield* sql`CREATE INDEX flagport_experiment_unit_events_unit ON flagport_experiment_unit_events (experiment_id, unit)`
})
