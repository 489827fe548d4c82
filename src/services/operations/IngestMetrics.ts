/**
 * What ingestion measures, one table for every kind of item it takes (exposures, metric events):
 * items accepted, by source (`sdk`: sent to the HTTP route,
 * `server`: recorded by the server's own evaluation routes), dropped by reason, duplicate (a
 * resent batch) and refused (a request answered 400, 429 or 503), and the ingestion lag (from an
 * item's arrival to the commit of its unit rows). Every label value is from a fixed set.
 */
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"

/** Why an item was not stored. */
export type DropReason =
  /** No running experiment measures its flag's rule, or it precedes the experiment's start. */
  | "not_measured"
  /** Recorded by the server while the ingestion buffer was full. */
  | "buffer_full"
  /** Recorded by the server, and its write failed (the database refused it). */
  | "write_failed"

export const DROP_REASONS: ReadonlyArray<DropReason> = ["not_measured", "buffer_full", "write_failed"]

export type Source = "sdk" | "server"

const LAG_BOUNDARIES = MetricBoundaries.fromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])

/** One kind's counters and lag histogram: `flagport_<kind>_total` and `flagport_<kind>_ingest_lag_seconds`. */
export const ingestMetricsOf = (kind: string, what: string) => {
  const items = Metric.counter(`flagport_${kind}_total`, {
    description: `${what}, by item and outcome: accepted (by source: sdk, the HTTP route; server, its own evaluation routes), ` +
      "dropped (by reason: not_measured, no running experiment needs it; buffer_full and write_failed, recorded by the server and not written), " +
      "duplicate (a resent batch) or refused (in a request answered 400, 429 or 503).",
    incremental: true
  })
  const outcome = (name: string) => Metric.tagged(items, "outcome", name)
  return {
    accepted: { sdk: Metric.tagged(outcome("accepted"), "source", "sdk"), server: Metric.tagged(outcome("accepted"), "source", "server") },
    dropped: Object.fromEntries(DROP_REASONS.map((reason) => [reason, Metric.tagged(outcome("dropped"), "reason", reason)])) as Record<
      DropReason,
      Metric.Metric.Counter<number>
    >,
    duplicate: outcome("duplicate"),
    refused: outcome("refused"),
    lag: Metric.histogram(`flagport_${kind}_ingest_lag_seconds`, LAG_BOUNDARIES, `${what}: seconds from an item's arrival to the commit of its rows.`)
  }
}

export type IngestMetrics = ReturnType<typeof ingestMetricsOf>

/** The table: one row per kind of item. */
export const ingest = {
  exposures: ingestMetricsOf("exposures", "Exposures (POST /v1/exposures and the server's evaluation routes)"),
  events: ingestMetricsOf("metric_events", "Metric events (POST /v1/track)")
} as const

/** Every metric of the table, for an exporter that must know them before their first update. */
export const allIngest: ReadonlyArray<Metric.Metric<any, any, any>> = Object.values(ingest).flatMap((m) => [
  m.accepted.sdk,
  m.accepted.server,
  ...Object.values(m.dropped),
  m.duplicate,
  m.refused,
  m.lag
])
