/**
 * Evaluation insights: how often each variation of a flag was served, in hourly buckets, and
 * when each flag was last evaluated. The schemas of `POST /v1/insights` (an SDK's own counts)
 * and of the series endpoint, and the hour arithmetic both sides share.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { Key } from "../definitions/Ids.js"
import { isInstantText } from "../definitions/InstantText.js"
import { limit } from "../Limits.js"

/** Most entries one SDK report may carry (an SDK sends one per flag and variation it served). */
export const MAX_REPORT_COUNTS = limit("reportEntries")
/** Largest count of one entry (the other bounds of a report are in `ReportBounds.ts`). */
export const MAX_REPORT_COUNT = limit("reportEntryCount")
/** Longest span of the series endpoint, in hours (31 days). */
export const MAX_SERIES_HOURS = 31 * 24

const HOUR_MS = 3_600_000

/** The start of the UTC hour holding `epochMillis`, as epoch milliseconds. */
export const hourStart = (epochMillis: number): number => Math.floor(epochMillis / HOUR_MS) * HOUR_MS

/** The bucket of an instant: its hour's start as an ISO 8601 UTC timestamp (`2026-11-23T14:00:00.000Z`). */
export const hourOf = (epochMillis: number): string => new Date(hourStart(epochMillis)).toISOString()

/** Every hour bucket from the one holding `from` to the one holding `to`, both included. */
export const hoursBetween = (from: number, to: number): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let hour = hourStart(from); hour <= to; hour += HOUR_MS) out.push(new Date(hour).toISOString())
  return out
}

/** An ISO 8601 instant with an explicit zone (`Z` or an offset), as `Date.parse` reads it. */
export const Instant = Schema.String.pipe(
  Schema.filter((text) => isInstantText(text), {
    message: () => "must be an ISO 8601 timestamp with a time zone, e.g. 2026-11-23T14:00:00Z"
  }),
  Schema.annotations({ description: "An ISO 8601 instant with a time zone, e.g. 2026-11-23T14:00:00Z", format: "date-time" })
)

export const ReportedCount = Schema.Struct({
  flagKey: Key,
  variationKey: Key,
  count: Schema.Number.pipe(
    Schema.int({ message: () => "must be a whole number" }),
    Schema.between(1, MAX_REPORT_COUNT, { message: () => `must be between 1 and ${MAX_REPORT_COUNT}` })
  )
}).annotations(documentName("ReportedCount"))
export type ReportedCount = typeof ReportedCount.Type

/**
 * Body of `POST /v1/insights`: what an SDK evaluated in process between `from` and `to`. The
 * counts land in the hour bucket of `to`; the window and what the counts may claim for it are
 * checked by the service (`ReportBounds.ts`). `projectId` only with a global server key.
 */
export const InsightsReport = Schema.Struct({
  projectId: Schema.optional(Schema.String),
  environment: Schema.optional(Key),
  from: Instant,
  to: Instant,
  counts: Schema.Array(ReportedCount).pipe(
    Schema.maxItems(MAX_REPORT_COUNTS, { message: () => `must hold at most ${MAX_REPORT_COUNTS} entries` })
  )
}).annotations(documentName("InsightsReport"))
export type InsightsReport = typeof InsightsReport.Type

/** Answer of `POST /v1/insights`: entries kept, and entries naming a flag or variation the environment does not have. */
export const InsightsReceipt = Schema.Struct({
  accepted: Schema.Number,
  ignored: Schema.Number
}).annotations(documentName("InsightsReceipt"))
export type InsightsReceipt = typeof InsightsReceipt.Type

export const InsightsPoint = Schema.Struct({
  hour: Schema.String,
  count: Schema.Number
}).annotations(documentName("InsightsPoint"))

export const VariationSeries = Schema.Struct({
  variationKey: Schema.String,
  total: Schema.Number,
  points: Schema.Array(InsightsPoint)
}).annotations(documentName("VariationSeries"))

/** Answer of `GET .../flags/{flagKey}/insights`: one point per hour per variation (zeros included). */
export const InsightsSeries = Schema.Struct({
  flagKey: Schema.String,
  environment: Schema.String,
  from: Schema.String,
  to: Schema.String,
  variations: Schema.Array(VariationSeries)
}).annotations(documentName("InsightsSeries"))
export type InsightsSeries = typeof InsightsSeries.Type

/** Query of the series endpoint: the environment, and an optional window (default: the last 24 hours). */
export const InsightsQuery = Schema.Struct({
  environment: Key,
  from: Schema.optional(Instant),
  to: Schema.optional(Instant)
})
export type InsightsQuery = typeof InsightsQuery.Type
