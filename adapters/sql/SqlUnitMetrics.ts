import type { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { UnitEvent } from "../../src/domain/experiments/MetricEvent.js"
import { addEvent, figuresOf, type MetricFigures, NO_FIGURES } from "../../src/domain/experiments/UnitMetrics.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/**
 * The metric side of a unit write (SqlExperimentUnitRepository.ts; tables in
 * migrations/0027_experiment_unit_metrics.ts), inside the write's transaction:
 * 1. (no lock of its own: the caller holds the advisory lock of every analysis it touches,
 *    SqlAnalysisTotals.ts, so two transactions writing one unit on PostgreSQL take turns, and an
 *    event and an exposure of one unit never miss each other's rows; SQLite has one writer);
 * 2. read the touched units before the exposures apply (`unitStates`), and know them after;
 * 3. keep each event raw (`flagport_experiment_unit_events`) while a late exposure could move its
 *    unit's first exposure;
 * 4. a unit whose first exposure moved (or is new) gets its metric rows recomputed from its raw
 *    events, which are all there: its first exposure could move, so none was pruned; a unit whose
 *    first exposure stayed gets each new event added to its metric row (`+ excluded`).
 * The figures follow UnitMetrics.ts, the same definition the memory backend applies on read.
 */

/**
 * A round's rows go to the database in one statement per table, whatever their number: on
 * PostgreSQL as one array parameter per column (`unnest`), on SQLite as ONE parameter, a JSON
 * array of rows read back by `json_each` (`value ->> i` is the row's i-th column). One small
 * parameter crosses to SQLite's thread instead of thousands, and the statement's text, the same for
 * any number of rows, stays prepared. JSON carries the values exactly: strings byte for byte (lone
 * surrogates as a bound parameter stores them), doubles in the shortest form that reads back to
 * the same double, integers below 2^53.
 */
export const jsonRows = (rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string => JSON.stringify(rows)

/** A unit's row as a write sees it: first exposure (epoch ms), variation, variations seen. */
export interface UnitState {
  readonly firstAt: number
  readonly variationKey: string
  readonly variationsSeen: number
}

export const unitId = (experimentId: string, unit: string) => `${experimentId}\u0000${unit}`

const UnitStateSql = Schema.Struct({ unit: Schema.String, first_exposure_at: Schema.String, variation_key: Schema.String, variations_seen: SqlInteger })
const decodeStates = decodeRows(UnitStateSql, "flagport_experiment_units")
const PendingSql = Schema.Struct({
  experiment_id: Schema.String,
  metric_key: Schema.String,
  unit: Schema.String,
  at: SqlInteger,
  value: Schema.Number,
  window_ms: Schema.NullOr(SqlInteger),
  pre_window_ms: SqlInteger
})
const decodePending = decodeRows(PendingSql, "flagport_experiment_unit_events")

/** Pairs by experiment, for `experiment_id = ? AND unit IN (...)` reads. */
const byExperiment = (pairs: Iterable<{ experimentId: string; unit: string }>) => {
  const groups = new Map<string, Set<string>>()
  for (const p of pairs) groups.set(p.experimentId, (groups.get(p.experimentId) ?? new Set()).add(p.unit))
  return groups
}

export const makeUnitMetrics = (sql: SqlClient.SqlClient) => {
  // One statement for all of a round's rows (none for no rows).
  const chunks = <A>(items: ReadonlyArray<A>): ReadonlyArray<ReadonlyArray<A>> => (items.length === 0 ? [] : [items])
  /**
   * `unit = ANY($1)` on PostgreSQL, `unit IN (SELECT value FROM json_each(?))` on SQLite: one parameter however many units.
   * The reads of a round's units on PostgreSQL do not use it: with `experiment_id = $1` beside it
   * the planner, misled by statistics of a table that grew since they were taken, chose to read
   * every row of the experiment and filter them (a bitmap scan of `experiment_id` alone: 1,000,000
   * rows removed by the filter to find none of 3,500 new units, 80 ms a round, growing with the
   * experiment). There each unit is one lookup of the primary key (or of the events' unit index),
   * forced by a LATERAL subquery the planner cannot flatten (LIMIT, OFFSET 0), whatever the statistics.
   */
  const unitIn = (units: ReadonlyArray<string>) =>
    sql.onDialectOrElse({
      pg: () => sql`unit = ANY(${units}::text[])`,
      orElse: () => sql`unit IN (SELECT value FROM json_each(${JSON.stringify(units)}))`
    })

  const unitStates = Effect.fnUntraced(function* (pairs: Iterable<{ experimentId: string; unit: string }>) {
    const states = new Map<string, UnitState>()
    for (const [experimentId, units] of byExperiment(pairs)) {
      for (const chunk of chunks([...units])) {
        const rows = yield* orFail(sql.onDialectOrElse({
          pg: () =>
            sql`SELECT u.unit, u.first_exposure_at, u.variation_key, u.variations_seen FROM unnest(${chunk}::text[]) AS k(unit)
              CROSS JOIN LATERAL (SELECT unit, first_exposure_at, variation_key, variations_seen FROM flagport_experiment_units
                WHERE experiment_id = ${experimentId} AND unit = k.unit LIMIT 1) AS u`,
          orElse: () =>
            sql`SELECT unit, first_exposure_at, variation_key, variations_seen FROM flagport_experiment_units
              WHERE experiment_id = ${experimentId} AND ${unitIn(chunk)}`
        })).pipe(Effect.flatMap(decodeStates))
        for (const r of rows) {
          states.set(unitId(experimentId, r.unit), { firstAt: Date.parse(r.first_exposure_at), variationKey: r.variation_key, variationsSeen: r.variations_seen })
        }
      }
    }
    return states
  })

  const keepRaw = (events: ReadonlyArray<UnitEvent>) =>
    Effect.forEach(chunks(events), (chunk) =>
      orFail(sql`INSERT INTO flagport_experiment_unit_events ${sql.onDialectOrElse({
        pg: () =>
          sql`(experiment_id, metric_key, unit, at, value, window_ms, pre_window_ms)
            SELECT * FROM unnest(${chunk.map((e) => e.experimentId)}::text[], ${chunk.map((e) => e.metricKey)}::text[], ${chunk.map((e) => e.unit)}::text[],
              ${chunk.map((e) => e.at)}::bigint[], ${chunk.map((e) => e.value)}::float8[], ${chunk.map((e) => e.windowMs)}::bigint[], ${chunk.map((e) => e.preWindowMs)}::bigint[])`,
        orElse: () =>
          sql`(experiment_id, metric_key, unit, at, value, window_ms, pre_window_ms)
            SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6
            FROM json_each(${jsonRows(chunk.map((e) => [e.experimentId, e.metricKey, e.unit, e.at, e.value, e.windowMs, e.preWindowMs]))})`
      })}`), { discard: true })

  const rawEvents = Effect.fnUntraced(function* (pairs: Iterable<{ experimentId: string; unit: string }>) {
    const events: Array<UnitEvent> = []
    for (const [experimentId, units] of byExperiment(pairs)) {
      for (const chunk of chunks([...units])) {
        const rows = yield* orFail(sql.onDialectOrElse({
          pg: () =>
            sql`SELECT e.experiment_id, e.metric_key, e.unit, e.at, e.value, e.window_ms, e.pre_window_ms FROM unnest(${chunk}::text[]) AS k(unit)
              CROSS JOIN LATERAL (SELECT experiment_id, metric_key, unit, at, value, window_ms, pre_window_ms FROM flagport_experiment_unit_events
                WHERE experiment_id = ${experimentId} AND unit = k.unit OFFSET 0) AS e`,
          orElse: () =>
            sql`SELECT experiment_id, metric_key, unit, at, value, window_ms, pre_window_ms FROM flagport_experiment_unit_events
              WHERE experiment_id = ${experimentId} AND ${unitIn(chunk)}`
        })).pipe(Effect.flatMap(decodePending))
        for (const r of rows) {
          events.push({ experimentId: r.experiment_id, metricKey: r.metric_key, unit: r.unit, at: r.at, value: r.value, windowMs: r.window_ms, preWindowMs: r.pre_window_ms })
        }
      }
    }
    return events
  })

  type Row = { experimentId: string; metricKey: string; unit: string; state: UnitState; figures: MetricFigures }
  /** The rows of an insert into flagport_experiment_unit_metrics: array parameters on PostgreSQL, a JSON array on SQLite (`WHERE true` lets an upsert follow the SELECT). */
  const metricValues = (rows: ReadonlyArray<Row>) =>
    sql.onDialectOrElse({
      pg: () =>
        sql`(experiment_id, metric_key, unit, variation_key, variations_seen, post_sum, post_count, pre_sum, pre_count)
          SELECT * FROM unnest(${rows.map((r) => r.experimentId)}::text[], ${rows.map((r) => r.metricKey)}::text[], ${rows.map((r) => r.unit)}::text[],
            ${rows.map((r) => r.state.variationKey)}::text[], ${rows.map((r) => r.state.variationsSeen)}::int[], ${rows.map((r) => r.figures.postSum)}::float8[],
            ${rows.map((r) => r.figures.postCount)}::bigint[], ${rows.map((r) => r.figures.preSum)}::float8[], ${rows.map((r) => r.figures.preCount)}::bigint[])`,
      orElse: () =>
        sql`(experiment_id, metric_key, unit, variation_key, variations_seen, post_sum, post_count, pre_sum, pre_count)
          SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8
          FROM json_each(${jsonRows(rows.map((r) => [r.experimentId, r.metricKey, r.unit, r.state.variationKey, r.state.variationsSeen,
            r.figures.postSum, r.figures.postCount, r.figures.preSum, r.figures.preCount]))}) WHERE true`
    })
  const sortRows = (rows: Iterable<Row>) =>
    [...rows].sort((a, b) => (a.experimentId < b.experimentId ? -1 : a.experimentId > b.experimentId ? 1 : a.metricKey < b.metricKey ? -1 : a.metricKey > b.metricKey ? 1 : a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0))

  /** Replaces the metric rows of units whose first exposure moved, from all their raw events. */
  const recompute = Effect.fnUntraced(function* (moved: ReadonlyMap<string, { experimentId: string; unit: string; state: UnitState; wasExposed: boolean }>) {
    if (moved.size === 0) return
    const rows = new Map<string, Row>()
    for (const event of yield* rawEvents(moved.values())) {
      const unit = moved.get(unitId(event.experimentId, event.unit))!
      const id = `${unitId(event.experimentId, event.unit)}\u0000${event.metricKey}`
      const row = rows.get(id) ?? { experimentId: event.experimentId, metricKey: event.metricKey, unit: event.unit, state: unit.state, figures: NO_FIGURES }
      rows.set(id, { ...row, figures: addEvent(row.figures, event, unit.state.firstAt) })
    }
    // Only a unit exposed before has metric rows to replace (rows are made for exposed units).
    for (const [experimentId, units] of byExperiment([...moved.values()].filter((m) => m.wasExposed))) {
      for (const chunk of chunks([...units])) {
        yield* orFail(sql`DELETE FROM flagport_experiment_unit_metrics WHERE experiment_id = ${experimentId} AND ${unitIn(chunk)}`)
      }
    }
    for (const chunk of chunks(sortRows(rows.values()))) {
      yield* orFail(sql`INSERT INTO flagport_experiment_unit_metrics ${metricValues(chunk)}`)
    }
  })

  /** Adds events of units whose first exposure stayed where it was to their metric rows. */
  const addToRows = Effect.fnUntraced(function* (events: ReadonlyArray<UnitEvent>, states: ReadonlyMap<string, UnitState>) {
    const groups = new Map<string, { experimentId: string; metricKey: string; unit: string; state: UnitState; events: Array<UnitEvent> }>()
    for (const event of events) {
      const state = states.get(unitId(event.experimentId, event.unit))
      if (state === undefined) continue
      const id = `${unitId(event.experimentId, event.unit)}\u0000${event.metricKey}`
      const group = groups.get(id) ?? { experimentId: event.experimentId, metricKey: event.metricKey, unit: event.unit, state, events: [] }
      group.events.push(event)
      groups.set(id, group)
    }
    const rows = [...groups.values()].map((g) => ({ ...g, figures: figuresOf(g.events, g.state.firstAt) }))
    for (const chunk of chunks(sortRows(rows))) {
      yield* orFail(sql`INSERT INTO flagport_experiment_unit_metrics ${metricValues(chunk)}
        ON CONFLICT (experiment_id, metric_key, unit) DO UPDATE SET
          post_sum = flagport_experiment_unit_metrics.post_sum + excluded.post_sum,
          post_count = flagport_experiment_unit_metrics.post_count + excluded.post_count,
          pre_sum = flagport_experiment_unit_metrics.pre_sum + excluded.pre_sum,
          pre_count = flagport_experiment_unit_metrics.pre_count + excluded.pre_count`)
    }
  })

  /** Copies the units' variations seen to their metric rows (the aggregate reads them there): one statement for all of them. */
  const syncSeen = (changed: ReadonlyArray<{ experimentId: string; unit: string; state: UnitState }>) =>
    changed.length === 0 ? Effect.void : orFail(sql.onDialectOrElse({
      pg: () =>
        sql`UPDATE flagport_experiment_unit_metrics AS m SET variations_seen = d.seen
          FROM unnest(${changed.map((c) => c.experimentId)}::text[], ${changed.map((c) => c.unit)}::text[], ${changed.map((c) => c.state.variationsSeen)}::int[])
            AS d(experiment_id, unit, seen)
          WHERE m.experiment_id = d.experiment_id AND m.unit = d.unit`,
      orElse: () =>
        sql`UPDATE flagport_experiment_unit_metrics SET variations_seen = d.value ->> 2
          FROM json_each(${jsonRows(changed.map((c) => [c.experimentId, c.unit, c.state.variationsSeen]))}) AS d
          WHERE experiment_id = d.value ->> 0 AND unit = d.value ->> 1`
    })).pipe(Effect.asVoid)

  /**
   * The metric side of a write, after `before` was read and the exposures applied (`after`: the
   * touched units' rows now).
   */
  const apply = Effect.fnUntraced(function* (
    events: ReadonlyArray<UnitEvent>,
    before: ReadonlyMap<string, UnitState>,
    after: ReadonlyMap<string, UnitState>
  ) {
    yield* keepRaw(events)
    const moved = new Map<string, { experimentId: string; unit: string; state: UnitState; wasExposed: boolean }>()
    const seenChanged: Array<{ experimentId: string; unit: string; state: UnitState }> = []
    for (const [id, state] of after) {
      const [experimentId, unit] = id.split("\u0000") as [string, string]
      const was = before.get(id)
      if (was === undefined || was.firstAt !== state.firstAt) moved.set(id, { experimentId, unit, state, wasExposed: was !== undefined })
      else if (was.variationsSeen !== state.variationsSeen) seenChanged.push({ experimentId, unit, state })
    }
    yield* recompute(moved)
    yield* syncSeen(seenChanged)
    yield* addToRows(events.filter((e) => !moved.has(unitId(e.experimentId, e.unit))), after)
  })

  return { unitStates, apply, chunks }
}
