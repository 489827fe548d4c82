import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Running totals of analyses (adapters/sql/SqlAnalysisTotals.ts reads them): per analysis (an
 * experiment's id; any id whose units are written to the unit tables) and variation, the units
 * exposed to that variation only and those first exposed to it and then to another; per analysis,
 * metric and variation, the sufficient statistics of the metric over its units exposed to that
 * variation only, both as a conversion (whole counts) and as a mean (doubles), so a metric's kind
 * is chosen when read. domain/experiments/AnalysisTotals.ts is the definition.
 *
 * Triggers keep them by delta in the transaction that writes the unit and metric rows, from the
 * rows' own old and new values, whatever statement writes them: SQLite by row, PostgreSQL by
 * statement over its transition tables (one grouped upsert per statement). Then the existing rows
 * are counted once (the backfill). A released migration is never edited: the statements are
 * written out here, not shared with the adapter.
 */

const UNITS = "flagport_analysis_units"
const METRICS = "flagport_analysis_metric_totals"

/** SQLite: one contribution (`sign` 1 or -1) of a unit row `r` (NEW or OLD) to its variation's counts. */
const sqliteUnitUpsert = (r: "NEW" | "OLD", sign: 1 | -1) =>
  `INSERT INTO ${UNITS} (analysis_id, variation_key, units, units_in_several)
    VALUES (${r}.experiment_id, ${r}.variation_key, ${sign} * (${r}.variations_seen = 1), ${sign} * (${r}.variations_seen > 1))
    ON CONFLICT (analysis_id, variation_key) DO UPDATE SET
      units = units + excluded.units, units_in_several = units_in_several + excluded.units_in_several;`

/** SQLite: one contribution of a metric row `r` to its totals (the caller makes sure `r` is seen in one variation). */
const sqliteMetricUpsert = (r: "NEW" | "OLD", sign: 1 | -1) =>
  `INSERT INTO ${METRICS} (analysis_id, metric_key, variation_key, converted, pre_converted, both_converted,
      post_sum, post_squares, pre_sum, pre_squares, cross_sum)
    SELECT ${r}.experiment_id, ${r}.metric_key, ${r}.variation_key, ${sign} * (${r}.post_count > 0), ${sign} * (${r}.pre_count > 0),
      ${sign} * (${r}.post_count > 0 AND ${r}.pre_count > 0), ${sign} * ${r}.post_sum, ${sign} * (${r}.post_sum * ${r}.post_sum),
      ${sign} * ${r}.pre_sum, ${sign} * (${r}.pre_sum * ${r}.pre_sum), ${sign} * (${r}.pre_sum * ${r}.post_sum)
    WHERE ${r}.variations_seen = 1
    ON CONFLICT (analysis_id, metric_key, variation_key) DO UPDATE SET
      converted = converted + excluded.converted, pre_converted = pre_converted + excluded.pre_converted,
      both_converted = both_converted + excluded.both_converted, post_sum = post_sum + excluded.post_sum,
      post_squares = post_squares + excluded.post_squares, pre_sum = pre_sum + excluded.pre_sum,
      pre_squares = pre_squares + excluded.pre_squares, cross_sum = cross_sum + excluded.cross_sum;`

const sqliteTriggers = [
  `CREATE TRIGGER flagport_analysis_units_insert AFTER INSERT ON flagport_experiment_units BEGIN ${sqliteUnitUpsert("NEW", 1)} END`,
  `CREATE TRIGGER flagport_analysis_units_delete AFTER DELETE ON flagport_experiment_units BEGIN ${sqliteUnitUpsert("OLD", -1)} END`,
  // Most updates (a returning unit's exposure) change neither the variation nor whether it was
  // seen in one variation only: they cost the WHEN test alone.
  `CREATE TRIGGER flagport_analysis_units_update AFTER UPDATE OF variation_key, variations_seen ON flagport_experiment_units
    WHEN OLD.variation_key IS NOT NEW.variation_key OR (OLD.variations_seen = 1) IS NOT (NEW.variations_seen = 1)
    BEGIN ${sqliteUnitUpsert("OLD", -1)} ${sqliteUnitUpsert("NEW", 1)} END`,
  `CREATE TRIGGER flagport_analysis_metrics_insert AFTER INSERT ON flagport_experiment_unit_metrics WHEN NEW.variations_seen = 1
    BEGIN ${sqliteMetricUpsert("NEW", 1)} END`,
  `CREATE TRIGGER flagport_analysis_metrics_delete AFTER DELETE ON flagport_experiment_unit_metrics WHEN OLD.variations_seen = 1
    BEGIN ${sqliteMetricUpsert("OLD", -1)} END`,
  // The common update (an event added to a unit that stays in its one variation): one statement
  // adding the difference. Any other update that touches a counted row: out with the old, in with the new.
  `CREATE TRIGGER flagport_analysis_metrics_update AFTER UPDATE ON flagport_experiment_unit_metrics
    WHEN OLD.variations_seen = 1 AND NEW.variations_seen = 1 AND OLD.variation_key = NEW.variation_key AND OLD.metric_key = NEW.metric_key
      AND OLD.experiment_id = NEW.experiment_id
    BEGIN UPDATE ${METRICS} SET
      converted = converted + ((NEW.post_count > 0) - (OLD.post_count > 0)),
      pre_converted = pre_converted + ((NEW.pre_count > 0) - (OLD.pre_count > 0)),
      both_converted = both_converted + ((NEW.post_count > 0 AND NEW.pre_count > 0) - (OLD.post_count > 0 AND OLD.pre_count > 0)),
      post_sum = post_sum + (NEW.post_sum - OLD.post_sum),
      post_squares = post_squares + (NEW.post_sum * NEW.post_sum - OLD.post_sum * OLD.post_sum),
      pre_sum = pre_sum + (NEW.pre_sum - OLD.pre_sum),
      pre_squares = pre_squares + (NEW.pre_sum * NEW.pre_sum - OLD.pre_sum * OLD.pre_sum),
      cross_sum = cross_sum + (NEW.pre_sum * NEW.post_sum - OLD.pre_sum * OLD.post_sum)
    WHERE analysis_id = NEW.experiment_id AND metric_key = NEW.metric_key AND variation_key = NEW.variation_key; END`,
  `CREATE TRIGGER flagport_analysis_metrics_move AFTER UPDATE ON flagport_experiment_unit_metrics
    WHEN (OLD.variations_seen = 1 OR NEW.variations_seen = 1) AND NOT (OLD.variations_seen = 1 AND NEW.variations_seen = 1
      AND OLD.variation_key = NEW.variation_key AND OLD.metric_key = NEW.metric_key AND OLD.experiment_id = NEW.experiment_id)
    BEGIN ${sqliteMetricUpsert("OLD", -1)} ${sqliteMetricUpsert("NEW", 1)} END`
]

/** PostgreSQL: the contributions of a transition table's rows, each with `sign`. */
const pgUnitRows = (table: string, sign: 1 | -1) =>
  `SELECT experiment_id, variation_key, ${sign} * (CASE WHEN variations_seen = 1 THEN 1 ELSE 0 END) AS units,
    ${sign} * (CASE WHEN variations_seen > 1 THEN 1 ELSE 0 END) AS several FROM ${table}`
const pgUnitUpsert = (rows: string) =>
  `INSERT INTO ${UNITS} AS t (analysis_id, variation_key, units, units_in_several)
    SELECT experiment_id, variation_key, SUM(units), SUM(several) FROM (${rows}) AS d
    GROUP BY experiment_id, variation_key HAVING SUM(units) <> 0 OR SUM(several) <> 0
    ORDER BY experiment_id, variation_key
    ON CONFLICT (analysis_id, variation_key) DO UPDATE SET
      units = t.units + excluded.units, units_in_several = t.units_in_several + excluded.units_in_several;`

const pgMetricRows = (table: string, sign: 1 | -1) =>
  `SELECT experiment_id, metric_key, variation_key,
    ${sign} * (CASE WHEN post_count > 0 THEN 1 ELSE 0 END) AS converted, ${sign} * (CASE WHEN pre_count > 0 THEN 1 ELSE 0 END) AS pre_converted,
    ${sign} * (CASE WHEN post_count > 0 AND pre_count > 0 THEN 1 ELSE 0 END) AS both_converted,
    ${sign} * post_sum AS post_sum, ${sign} * (post_sum * post_sum) AS post_squares, ${sign} * pre_sum AS pre_sum,
    ${sign} * (pre_sum * pre_sum) AS pre_squares, ${sign} * (pre_sum * post_sum) AS cross_sum
    FROM ${table} WHERE variations_seen = 1`
const pgMetricUpsert = (rows: string) =>
  `INSERT INTO ${METRICS} AS t (analysis_id, metric_key, variation_key, converted, pre_converted, both_converted,
      post_sum, post_squares, pre_sum, pre_squares, cross_sum)
    SELECT experiment_id, metric_key, variation_key, SUM(converted), SUM(pre_converted), SUM(both_converted),
      SUM(post_sum), SUM(post_squares), SUM(pre_sum), SUM(pre_squares), SUM(cross_sum)
    FROM (${rows}) AS d GROUP BY experiment_id, metric_key, variation_key ORDER BY experiment_id, metric_key, variation_key
    ON CONFLICT (analysis_id, metric_key, variation_key) DO UPDATE SET
      converted = t.converted + excluded.converted, pre_converted = t.pre_converted + excluded.pre_converted,
      both_converted = t.both_converted + excluded.both_converted, post_sum = t.post_sum + excluded.post_sum,
      post_squares = t.post_squares + excluded.post_squares, pre_sum = t.pre_sum + excluded.pre_sum,
      pre_squares = t.pre_squares + excluded.pre_squares, cross_sum = t.cross_sum + excluded.cross_sum;`

/** A trigger function that applies the transition tables `new_rows` / `old_rows` of whichever event fired it. */
const pgFunction = (name: string, upsert: (rows: string) => string, rows: (table: string, sign: 1 | -1) => string) =>
  `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $body$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      ${upsert(rows("new_rows", 1))}
    ELSIF TG_OP = 'DELETE' THEN
      ${upsert(rows("old_rows", -1))}
    ELSE
      ${upsert(`${rows("new_rows", 1)} UNION ALL ${rows("old_rows", -1)}`)}
    END IF;
    RETURN NULL;
  END $body$`

const pgTriggers = (table: string, fn: string, prefix: string) => [
  `CREATE TRIGGER ${prefix}_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  `CREATE TRIGGER ${prefix}_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  `CREATE TRIGGER ${prefix}_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`
]

const pgStatements = [
  pgFunction("flagport_analysis_units_changed", pgUnitUpsert, pgUnitRows),
  pgFunction("flagport_analysis_metrics_changed", pgMetricUpsert, pgMetricRows),
  ...pgTriggers("flagport_experiment_units", "flagport_analysis_units_changed", "flagport_analysis_units"),
  ...pgTriggers("flagport_experiment_unit_metrics", "flagport_analysis_metrics_changed", "flagport_analysis_metrics")
]

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const clustered = sql.onDialectOrElse({ sqlite: () => sql.literal("WITHOUT ROWID"), orElse: () => sql.literal("") })
  yield* sql`CREATE TABLE flagport_analysis_units (
    analysis_id TEXT NOT NULL,
    variation_key TEXT NOT NULL,
    units BIGINT NOT NULL,
    units_in_several BIGINT NOT NULL,
    PRIMARY KEY (analysis_id, variation_key)
  ) ${clustered}`
  yield* sql`CREATE TABLE flagport_analysis_metric_totals (
    analysis_id TEXT NOT NULL,
    metric_key TEXT NOT NULL,
    variation_key TEXT NOT NULL,
    converted BIGINT NOT NULL,
    pre_converted BIGINT NOT NULL,
    both_converted BIGINT NOT NULL,
    post_sum DOUBLE PRECISION NOT NULL,
    post_squares DOUBLE PRECISION NOT NULL,
    pre_sum DOUBLE PRECISION NOT NULL,
    pre_squares DOUBLE PRECISION NOT NULL,
    cross_sum DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (analysis_id, metric_key, variation_key)
  ) ${clustered}`
  // The backfill first (the triggers do not exist yet, so nothing counts twice).
  yield* sql`INSERT INTO flagport_analysis_units (analysis_id, variation_key, units, units_in_several)
    SELECT experiment_id, variation_key, SUM(CASE WHEN variations_seen = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN variations_seen > 1 THEN 1 ELSE 0 END)
    FROM flagport_experiment_units GROUP BY experiment_id, variation_key`
  yield* sql`INSERT INTO flagport_analysis_metric_totals (analysis_id, metric_key, variation_key, converted, pre_converted, both_converted,
      post_sum, post_squares, pre_sum, pre_squares, cross_sum)
    SELECT experiment_id, metric_key, variation_key, SUM(CASE WHEN post_count > 0 THEN 1 ELSE 0 END), SUM(CASE WHEN pre_count > 0 THEN 1 ELSE 0 END),
      SUM(CASE WHEN post_count > 0 AND pre_count > 0 THEN 1 ELSE 0 END), SUM(post_sum), SUM(post_sum * post_sum), SUM(pre_sum),
      SUM(pre_sum * pre_sum), SUM(pre_sum * post_sum)
    FROM flagport_experiment_unit_metrics WHERE variations_seen = 1 GROUP BY experiment_id, metric_key, variation_key`
  const triggers = sql.onDialectOrElse({ pg: () => pgStatements, orElse: () => sqliteTriggers })
  for (const statement of triggers) yield* sql.unsafe(statement)
})
