/**
 * Metric events sent by SDKs (`POST /v1/track`, docs/guide/experiments.md). Checked as
 * exposures are (Exposures.ts): the key's scope as an evaluation's, every item's timestamp before
 * anything is looked up, the key's hourly budget shared with exposures (429 past it). An event is
 * kept for each running experiment's metric in that environment that names it: it updates its
 * unit's metric rows, written by the ingestion's group commit (Ingestion.ts) with other requests'
 * items in one transaction and acknowledged once committed; an event no running metric names is
 * dropped (counted, never stored). A batch id resent by the same key within 24 hours is
 * acknowledged and counted once.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Principal } from "../../domain/auth/ApiKey.js"
import type { Forbidden, InvalidRequest, RateLimited, ResourceNotFound, ServiceUnavailable } from "../../domain/Errors.js"
import { type IngestReceipt, timestampProblems } from "../../domain/experiments/Exposure.js"
import { keptEvents, type TrackBatch } from "../../domain/experiments/MetricEvent.js"
import { limit } from "../../domain/Limits.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { ingest } from "../operations/IngestMetrics.js"
import { makeIngestRequest } from "./IngestRequest.js"

const HOUR_MS = 3_600_000
/**
 * Raw events are kept until no exposure can arrive before their unit's first exposure: every
 * exposure is at most `ingestAge` hours old when it arrives, and an hour more covers a clock
 * that differs between servers.
 */
const RECLASSIFY_MS = (limit("ingestAge") + 1) * HOUR_MS

export interface TrackShape {
  /**
   * The SDK's metric events, sent with the key `principal`: 400 for an item out of bounds (naming
   * it) or a project or environment the key may not name, 403 for another environment than a
   * bound key's, 404 for an unknown project or environment, 429 past the key's hourly budget, 503
   * while the ingestion's queue is full. A refused request keeps nothing. `accepted` counts events kept (for one metric or more),
   * `dropped` events no running experiment's metric names.
   */
  readonly record: (
    principal: Principal,
    batch: TrackBatch
  ) => Effect.Effect<IngestReceipt, InvalidRequest | ResourceNotFound | Forbidden | RateLimited | ServiceUnavailable | StorageError>
  /** Forgets the raw events no late exposure can reclassify any more; answers how many. */
  readonly pruneEvents: Effect.Effect<number, StorageError>
}

export class Track extends Context.Tag("@flagport/services/Track")<Track, TrackShape>() {}

export const make = Effect.gen(function* () {
  const units = yield* ExperimentUnitRepository
  const requests = yield* makeIngestRequest("track", ingest.events)

  const record = Effect.fn("Track.record")(function* (principal: Principal, batch: TrackBatch) {
    const count = batch.events.length
    const problemsAt = (now: number) => timestampProblems("events", batch.events.map((event) => event.timestamp), now)
    return yield* requests.handle(principal, batch, count, problemsAt, (now, running) => {
      const { dropped, kept } = keptEvents(batch.events, running, now)
      return { items: { exposures: [], events: kept }, receipt: { accepted: count - dropped, dropped } }
    })
  })

  const pruneEvents = Effect.flatMap(Clock.currentTimeMillis, (now) => units.pruneEvents(now - RECLASSIFY_MS))

  return Track.of({ record, pruneEvents })
})

/** The service, over the ingestion's group commit and the hourly budget it shares with Exposures (UseCases.ts provides both). */
export const layer = Layer.effect(Track, make)
