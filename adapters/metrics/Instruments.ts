/**
 * What the adapters measure outside the request path, as Effect metrics (like the core's,
 * src/services/operations/ServiceMetrics.ts): the snapshot cache's reloads, the change feed's lag between
 * processes, the SQLite writer's queue. Plain-function code updates them with `unsafeUpdate`
 * (no fiber needed); Exporter.ts hands them to Prometheus. Effect's metric registry is one per
 * process, so these are process-wide, as prom-client's process defaults are.
 */
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

const reloads = Metric.counter("flagport_snapshot_reloads_total", {
  description: "Compiled snapshots (re)built by the evaluation lane's cache, by outcome: ok or error.",
  incremental: true
})

export const snapshotReloads = {
  ok: Metric.tagged(reloads, "outcome", "ok"),
  error: Metric.tagged(reloads, "outcome", "error")
} as const

/** Load plus compile of one (project, environment) snapshot. */
export const snapshotReloadSeconds = Metric.histogram(
  "flagport_snapshot_reload_duration_seconds",
  MetricBoundaries.fromIterable([0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]),
  "Time to load and compile one environment's snapshot."
)

/**
 * From a write's announcement in one process to its arrival in another (PostgreSQL LISTEN/NOTIFY;
 * the payload carries the sender's clock, so across hosts this includes their clock skew).
 */
export const changeFeedLagSeconds = Metric.histogram(
  "flagport_change_feed_lag_seconds",
  MetricBoundaries.fromIterable([0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
  "Delay between a change announced by another process and its arrival here (PostgreSQL change feed)."
)

/** Statements sent to the SQLite writer thread and not yet answered (commits awaiting durability included). */
export const sqliteWriterQueue = Metric.gauge("flagport_sqlite_writer_queue", {
  description: "Requests waiting on the SQLite writer thread (statements and commits awaiting durability)."
})

/** Every metric above, for an exporter that must know them before their first update. */
export const all: ReadonlyArray<Metric.Metric<any, any, any>> = [
  snapshotReloads.ok,
  snapshotReloads.error,
  snapshotReloadSeconds,
  changeFeedLagSeconds,
  sqliteWriterQueue
]
