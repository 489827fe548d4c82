/**
 * Metric events (docs/guide/experiments.md): something a unit did, sent by SDKs with
 * `POST /v1/track`. The schemas of the route, and which running experiments' metrics each event
 * feeds (`keptEvents`: an event no running metric names is dropped, never stored). What an event
 * then counts for is `UnitMetrics.ts`'s. Limits are in `Limits.ts` (scope "ingest").
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { Key } from "../definitions/Ids.js"
import { Instant } from "../insights/Insights.js"
import { atMost, limit } from "../Limits.js"
import { EventName } from "./Experiment.js"
import { BatchId, Unit } from "./Exposure.js"
import type { MeasuredRule } from "./MeasuredRule.js"

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** A value summed per unit: finite and at most `ingestValue` in absolute value. */
const Value = Schema.Number.pipe(
  Schema.filter((n) => (Number.isFinite(n) && Math.abs(n) <= limit("ingestValue")) || `must be a finite number from -${limit("ingestValue").toLocaleString("en-US")} to ${limit("ingestValue").toLocaleString("en-US")}`)
)

export const MetricEvent = Schema.Struct({
  event: EventName,
  unit: Unit,
  value: Schema.optional(Value),
  timestamp: Schema.optional(Instant)
}).annotations(documentName("MetricEvent"))
export type MetricEvent = typeof MetricEvent.Type

/** Body of `POST /v1/track`. `projectId` only with a global server key; `environment` unless the key is bound to one. */
export const TrackBatch = Schema.Struct({
  projectId: Schema.optional(Schema.String),
  environment: Schema.optional(Key),
  batchId: Schema.optional(BatchId),
  events: Schema.Array(MetricEvent).pipe(Schema.maxItems(limit("ingestItems"), { message: () => atMost("ingestItems") }))
}).annotations(documentName("TrackBatch"))
export type TrackBatch = typeof TrackBatch.Type

/**
 * What a kept event adds to its unit's row for one metric of one experiment. `at` is epoch
 * milliseconds; `windowMs` is the metric's window after the first exposure (null: no end);
 * `preWindowMs` the experiment's CUPED period before it. An event without a value counts 1.
 */
export interface UnitEvent {
  readonly experimentId: string
  readonly metricKey: string
  readonly unit: string
  readonly at: number
  readonly value: number
  readonly windowMs: number | null
  readonly preWindowMs: number
}

/** The events the rules measured in one environment keep (experiments' and release plans'), and how many events fed none. */
export interface KeptEvents {
  readonly kept: ReadonlyArray<UnitEvent>
  readonly dropped: number
}

/**
 * Each event, once per running experiment's (or release plan's guardrail) metric that names it
 * (one event may feed several metrics and analyses); an event no metric names is dropped. Events
 * before a start are kept: they may be a unit's CUPED covariate.
 */
export const keptEvents = (events: ReadonlyArray<MetricEvent>, running: ReadonlyArray<MeasuredRule>, now: number): KeptEvents => {
  const byEvent = new Map<string, Array<Omit<UnitEvent, "unit" | "at" | "value">>>()
  for (const measured of running) {
    for (const metric of measured.metrics) {
      const feeds = byEvent.get(metric.event) ?? []
      feeds.push({
        experimentId: measured.id,
        metricKey: metric.key,
        windowMs: metric.windowHours === undefined ? null : metric.windowHours * HOUR_MS,
        preWindowMs: measured.preWindowDays * DAY_MS
      })
      byEvent.set(metric.event, feeds)
    }
  }
  let dropped = 0
  const kept = events.flatMap((event) => {
    const feeds = byEvent.get(event.event)
    if (feeds === undefined) {
      dropped++
      return []
    }
    const at = event.timestamp === undefined ? now : Date.parse(event.timestamp)
    return feeds.map((feed) => ({ ...feed, unit: event.unit, at, value: event.value ?? 1 }))
  })
  return { kept, dropped }
}
