/**
 * Exposures sent by SDKs that evaluate locally (`POST /v1/exposures`, docs/guide/experiments.md).
 * The key's scope is checked as an evaluation's; every item's timestamp is checked before anything
 * is looked up; a key's hourly budget bounds what one client may send (429 past it). Only the
 * exposures of a running experiment's flag and rule, from its start on, are kept: each updates its
 * unit's row, written by the ingestion's group commit (Ingestion.ts) with other requests' items in
 * one transaction and acknowledged once committed. A batch id resent by the same key within 24
 * hours is acknowledged and counted once.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Principal } from "../../domain/auth/ApiKey.js"
import type { Forbidden, InvalidRequest, RateLimited, ResourceNotFound, ServiceUnavailable } from "../../domain/Errors.js"
import { type ExposureBatch, exposureProblems, type IngestReceipt, keptExposures } from "../../domain/experiments/Exposure.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { ingest } from "../operations/IngestMetrics.js"
import { makeIngestRequest } from "./IngestRequest.js"

const HOUR_MS = 3_600_000
/** How long a batch id is remembered: a resend after that counts again. */
const BATCH_MEMORY_MS = 24 * HOUR_MS

export interface ExposuresShape {
  /**
   * The SDK's exposures, sent with the key `principal`: 400 for an item out of bounds (naming it)
   * or a project or environment the key may not name, 403 for another environment than a bound
   * key's, 404 for an unknown project or environment, 429 past the key's hourly budget, 503 while
   * the ingestion's queue is full. A refused request keeps nothing.
   */
  readonly record: (
    principal: Principal,
    batch: ExposureBatch
  ) => Effect.Effect<IngestReceipt, InvalidRequest | ResourceNotFound | Forbidden | RateLimited | ServiceUnavailable | StorageError>
  /** Forgets batch ids older than 24 hours. */
  readonly pruneBatches: Effect.Effect<number, StorageError>
}

export class Exposures extends Context.Tag("@flagport/services/Exposures")<Exposures, ExposuresShape>() {}

export const make = Effect.gen(function* () {
  const units = yield* ExperimentUnitRepository
  const requests = yield* makeIngestRequest("exposures", ingest.exposures)

  const record = Effect.fn("Exposures.record")(function* (principal: Principal, batch: ExposureBatch) {
    const count = batch.exposures.length
    return yield* requests.handle(principal, batch, count, (now) => exposureProblems(batch.exposures, now), (_, running) => {
      const kept = keptExposures(batch.exposures, running)
      return { items: { exposures: kept }, receipt: { accepted: kept.length, dropped: count - kept.length } }
    })
  })

  const pruneBatches = Effect.flatMap(Clock.currentTimeMillis, (now) => units.pruneBatches(new Date(now - BATCH_MEMORY_MS).toISOString()))

  return Exposures.of({ record, pruneBatches })
})

/**
 * The service (over the ingestion's group commit and the hourly budget it shares with Track, which
 * the layer using it provides). Forgetting old batch ids is a background worker's (ExposureBatchRetention.ts, run by
 * the server's workers), not the use case's: a layer that builds the use cases starts no fiber.
 */
export const layer = Layer.effect(Exposures, make)
