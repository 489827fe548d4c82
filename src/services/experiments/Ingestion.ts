/**
 * The group commit of ingestion (docs/operations/operating.md, "Ingestion"): what many requests sent, and what
 * the server's own evaluation routes recorded, written together in ONE transaction, as insights
 * flushes its counts, so the database commits (and on SQLite syncs) once per round, not once per
 * request.
 *
 * - `commit` (an HTTP request's items): queued, then answered once the round that wrote them has
 *   committed (true), or once its batch id is found recorded before (false: nothing written). An
 *   acknowledged item is on disk, so a crash loses nothing acknowledged.
 * - `offer` (the server's own exposures): queued without waiting, from a plain function (the
 *   evaluation path); dropped and counted when the queue is full, so recording never slows or fails
 *   an evaluation.
 *
 * One fiber writes, started when something is queued and ended when the queue is empty (the layer
 * starts nothing while idle). A round takes every queued write, up to `ROUND_ITEMS` items; while it
 * commits the next round gathers. When a round's transaction fails, each of its writes is tried
 * alone, so one write the database refuses cannot fail the others'. Queued items are bounded
 * (`QUEUED_ITEMS`): past it a request is answered 503 and the server's exposures are dropped.
 *
 * A write is a set of items of each kind: exposures and metric events (`POST /v1/track`) join
 * the same rounds, applied by one repository call per round.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberId from "effect/FiberId"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import { ServiceUnavailable } from "../../domain/Errors.js"
import type { UnitExposure } from "../../domain/experiments/Exposure.js"
import type { UnitEvent } from "../../domain/experiments/MetricEvent.js"
import { ExperimentUnitRepository, type IngestBatch } from "../../ports/ExperimentUnitRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Transactor } from "../../ports/Transactor.js"
import { ingest } from "../operations/IngestMetrics.js"

/** Items one round writes at most (a write is never split: a round takes at least one). */
export const ROUND_ITEMS = 20_000

/** Items queued at most, written or not yet: past it `commit` answers 503 and `offer` drops. */
export const QUEUED_ITEMS = 200_000

/** How long a shutdown waits for the queue to be written before giving up on it. */
const DRAIN_TIMEOUT = Duration.seconds(10)

/** What one request (or the server's own recording) writes: its items, with the batch id a client may resend. */
export interface IngestWrite {
  readonly batch?: IngestBatch | undefined
  readonly exposures: ReadonlyArray<UnitExposure>
  readonly events?: ReadonlyArray<UnitEvent> | undefined
}

export interface IngestionShape {
  /**
   * Writes `write` in the next round: true once committed, false when its batch was recorded
   * before (nothing written). 503 while the queue is full; a failed write's StorageError.
   */
  readonly commit: (write: IngestWrite) => Effect.Effect<boolean, ServiceUnavailable | StorageError>
  /**
   * Queues an exposure the server recorded, without waiting; false (dropped, counted) when the
   * queue is full. A plain function: the evaluation path calls it.
   */
  readonly offer: (exposure: UnitExposure) => boolean
  /** Waits until what is queued now has been written (or failed). */
  readonly flush: Effect.Effect<void>
  /** Items queued and not yet written. */
  readonly queued: () => number
}

export class Ingestion extends Context.Tag("@flagport/services/Ingestion")<Ingestion, IngestionShape>() {}

interface Queued {
  readonly exposures: Array<UnitExposure>
  readonly events: ReadonlyArray<UnitEvent>
  readonly batch?: IngestBatch | undefined
  readonly arrivedAt: number
  /** Absent for the server's own items: nobody waits for them. */
  readonly done?: Deferred.Deferred<boolean, StorageError>
}

const itemsOf = (write: Pick<IngestWrite, "exposures" | "events">) => write.exposures.length + (write.events?.length ?? 0)

export const make = Effect.gen(function* () {
  const tx = yield* Transactor
  const units = yield* ExperimentUnitRepository
  const fibers = yield* FiberSet.make()
  const fork = yield* FiberSet.runtime(fibers)<never>()
  const metrics = ingest.exposures

  let queue: Array<Queued> = []
  let queuedItems = 0
  /** The write gathering the server's own exposures until a round takes it. */
  let serverWrite: Queued | null = null
  let writing = false
  /** Completed whenever the writer stops (the queue is empty): what `flush` waits for. */
  let idle = Deferred.unsafeMake<void>(FiberId.none)

  /** One transaction: the batches claimed first, then the items of the writes whose batch is new. */
  const apply = (group: ReadonlyArray<Queued>) =>
    tx.withTransaction(Effect.gen(function* () {
      const batched = group.filter((w) => w.batch !== undefined)
      const claimed = batched.length === 0 ? [] : yield* units.claimBatches(batched.map((w) => w.batch!))
      const fresh = new Map(batched.map((w, i) => [w, claimed[i] ?? false] as const))
      const kept = group.filter((w) => fresh.get(w) ?? true)
      const exposures = kept.length === 1 ? kept[0]!.exposures : kept.flatMap((w) => w.exposures)
      const events = kept.length === 1 ? kept[0]!.events : kept.flatMap((w) => w.events)
      if (exposures.length > 0 || events.length > 0) yield* units.applyItems(exposures, events)
      return group.map((w) => fresh.get(w) ?? true)
    }))

  const settle = (write: Queued, outcome: Exit.Exit<boolean, StorageError>, now: number) =>
    Effect.gen(function* () {
      if (write.done !== undefined) {
        yield* Deferred.done(write.done, outcome)
      } else if (Exit.isSuccess(outcome)) {
        yield* Metric.incrementBy(metrics.accepted.server, write.exposures.length)
      } else {
        yield* Metric.incrementBy(metrics.dropped.write_failed, write.exposures.length)
        yield* Effect.logWarning(`Dropped ${write.exposures.length} exposures recorded by the server: writing them failed`, outcome.cause)
      }
      if (Exit.isSuccess(outcome)) {
        const lag = Math.max(0, now - write.arrivedAt) / 1000
        if (write.exposures.length > 0) yield* Metric.update(metrics.lag, lag)
        if (write.events.length > 0) yield* Metric.update(ingest.events.lag, lag)
      }
    })

  /** Takes the next round's writes off the queue (at least one, then up to ROUND_ITEMS items). */
  const take = (): ReadonlyArray<Queued> => {
    let items = 0
    let count = 0
    while (count < queue.length && (count === 0 || items + itemsOf(queue[count]!) <= ROUND_ITEMS)) {
      items += itemsOf(queue[count]!)
      count++
    }
    const group = queue.slice(0, count)
    queue = queue.slice(count)
    queuedItems -= items
    if (serverWrite !== null && group.includes(serverWrite)) serverWrite = null
    return group
  }

  const round = Effect.gen(function* () {
    const group = take()
    const whole = yield* Effect.exit(apply(group))
    const now = yield* Clock.currentTimeMillis
    if (Exit.isSuccess(whole) || group.length === 1) {
      for (let i = 0; i < group.length; i++) {
        yield* settle(group[i]!, Exit.map(whole, (fresh) => fresh[i]!), now)
      }
      return
    }
    // The round failed: each write alone, so one the database refuses cannot fail the others.
    for (const write of group) yield* settle(write, Exit.map(yield* Effect.exit(apply([write])), (fresh) => fresh[0]!), now)
  })

  /** Whether there is more to write; when not, the writer stops in the same step (no enqueue can slip between). */
  const more = Effect.sync(() => {
    if (queue.length > 0) return true
    writing = false
    return false
  })

  const writer = Effect.gen(function* () {
    while (yield* more) yield* round
    yield* Deferred.succeed(idle, undefined)
  }).pipe(Effect.onInterrupt(() => Effect.sync(() => {
    writing = false
  })))

  const enqueue = (write: Queued) => {
    queue.push(write)
    queuedItems += itemsOf(write)
    if (!writing) {
      writing = true
      idle = Deferred.unsafeMake<void>(FiberId.none)
      fork(writer)
    }
  }

  const commit: IngestionShape["commit"] = (write) =>
    Effect.gen(function* () {
      const items = itemsOf(write)
      if (queuedItems + items > QUEUED_ITEMS) {
        yield* Metric.incrementBy(metrics.refused, items)
        return yield* new ServiceUnavailable({ message: "Too many items are waiting to be written; send them again later." })
      }
      const done = yield* Deferred.make<boolean, StorageError>()
      const arrivedAt = yield* Clock.currentTimeMillis
      enqueue({ exposures: [...write.exposures], events: write.events ?? [], batch: write.batch, arrivedAt, done })
      return yield* Deferred.await(done)
    })

  const offer: IngestionShape["offer"] = (exposure) => {
    if (queuedItems >= QUEUED_ITEMS) {
      metrics.dropped.buffer_full.unsafeUpdate(1, [])
      return false
    }
    if (serverWrite === null) {
      serverWrite = { exposures: [exposure], events: [], arrivedAt: Date.now() }
      enqueue(serverWrite)
    } else {
      serverWrite.exposures.push(exposure)
      queuedItems++
    }
    return true
  }

  const flush = Effect.suspend(() => (writing ? Deferred.await(idle) : Effect.void))

  // At shutdown what is queued is written before the writer is stopped (the finalizers run in
  // reverse order: this one before the fiber set's).
  yield* Effect.addFinalizer(() => Effect.timeout(flush, DRAIN_TIMEOUT).pipe(Effect.ignore))

  return Ingestion.of({ commit, offer, flush, queued: () => queuedItems })
})

/** The service; its writer runs while something is queued, within the layer's scope. */
export const layer: Layer.Layer<Ingestion, never, Transactor | ExperimentUnitRepository> = Layer.scoped(Ingestion, make)
