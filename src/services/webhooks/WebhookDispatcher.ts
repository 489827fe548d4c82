import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Queue from "effect/Queue"
import * as Random from "effect/Random"
import * as Tracer from "effect/Tracer"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import { isSuccessStatus, retryDelay } from "../../domain/webhooks/RetrySchedule.js"
import { answeredError } from "../../domain/webhooks/WebhookDelivery.js"
import { claimPlan, defaultProjectConcurrency } from "../../domain/webhooks/WebhookQuota.js"
import { signingSecrets } from "../../domain/webhooks/WebhookInput.js"
import { signer, unixSeconds } from "../../domain/webhooks/WebhookSigning.js"
import { Crypto } from "../../ports/Crypto.js"
import { receivesEventAt } from "../../domain/webhooks/WebhookWindow.js"
import { parseTraceParent } from "../../domain/tracing/TraceParent.js"
import { EventOutbox } from "../../ports/EventOutbox.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Transactor } from "../../ports/Transactor.js"
import { type ClaimedDelivery, WebhookRepository } from "../../ports/WebhookRepository.js"
import { WebhookTransport } from "../../ports/WebhookTransport.js"
import * as ServiceMetrics from "../operations/ServiceMetrics.js"
import { config as retentionConfig, defaultRetentionOptions, type RetentionOptions, runPruning } from "./WebhookRetention.js"

/**
 * Drains the event outbox into webhook deliveries and sends them (contract: Webhooks).
 *
 * One round ("tick"):
 *  1. fan-out: in one transaction, every undispatched outbox event becomes one pending delivery per
 *     webhook of its project subscribed to its type that was enabled when the event OCCURRED
 *     (domain/webhooks/WebhookWindow.ts), and the event is marked dispatched;
 *  2. claim: due deliveries are leased to this dispatcher (only the oldest pending delivery of each
 *     webhook, so a webhook receives its events one at a time, in order), as many as there are
 *     free send slots, dealt fairly among the projects that have some, none holding more than
 *     its share (`projectConcurrency`): one project's burst cannot take every slot;
 *  3. send each in its own fiber (the loop does not wait for them: see `run`), with Standard
 *     Webhooks headers signed with the current and any still-honoured previous secret, and record
 *     the attempt: 2xx succeeds; anything else is retried on the schedule in
 *     domain/webhooks/RetrySchedule.ts, then the delivery is failed.
 *
 * Everything durable lives in storage, so a crash loses nothing: an event committed before a
 * SIGKILL is fanned out after restart, and a delivery leased by a dead process is claimed again
 * when its lease expires (at least once). Several processes on one PostgreSQL never hold the same
 * delivery at once. All timing uses Effect's Clock, so tests drive it with TestClock.
 *
 * Retention (WebhookRetention.ts) runs in a sibling fiber of the same scope.
 */

export interface DispatcherOptions {
  /** Pause between rounds that found nothing to do. */
  readonly pollInterval: Duration.DurationInput
  /** Events fanned out and deliveries claimed per round. */
  readonly batchSize: number
  /** How long a claim protects a delivery from other dispatchers; must exceed the transport timeout. */
  readonly lease: Duration.DurationInput
  /**
   * Most sends in flight at once (each to a different webhook). Up to this many destinations may
   * hang at the same time without delaying anyone else's deliveries.
   */
  readonly concurrency: number
  /**
   * Most sends in flight for one project (default: a quarter of `concurrency`), so a burst of one
   * project's webhooks leaves slots for the others (domain/webhooks/WebhookQuota.ts).
   */
  readonly projectConcurrency?: number
}

export const defaultOptions: DispatcherOptions = {
  pollInterval: Duration.seconds(1),
  batchSize: 100,
  lease: Duration.seconds(60),
  concurrency: 256
}

const projectLimitOf = (options: DispatcherOptions) => options.projectConcurrency ?? defaultProjectConcurrency(options.concurrency)

/** What one round did. */
export interface TickResult {
  readonly fannedOut: number
  readonly sent: number
}

type FanOutDeps = WebhookRepository | EventOutbox | Transactor | IdGenerator
type Deps = FanOutDeps | WebhookTransport | Crypto

const nowIso = Effect.map(Clock.currentTimeMillis, formatTimestamp)

/** Step 1: undispatched outbox events -> pending deliveries, in one transaction. Returns events handled. */
export const fanOut = (batchSize: number): Effect.Effect<number, StorageError, FanOutDeps> =>
  Effect.gen(function* () {
    const repo = yield* WebhookRepository
    const outbox = yield* EventOutbox
    const ids = yield* IdGenerator
    const tx = yield* Transactor
    return yield* tx.withTransaction(
      Effect.gen(function* () {
        yield* repo.lockForFanOut
        const entries = yield* outbox.pending(batchSize)
        const now = yield* nowIso
        for (const { event, traceparent } of entries) {
          const subscribers = yield* repo.subscribers(event.projectId, event.type)
          const payload = JSON.stringify(event)
          // Judged by when the event occurred, not by the webhook's state now (WebhookWindow.ts).
          for (const subscriber of subscribers.filter((s) => receivesEventAt(s, event.occurredAt))) {
            yield* repo.insertDelivery({
              id: yield* ids.next,
              webhookId: subscriber.id,
              projectId: event.projectId,
              eventId: event.id,
              eventType: event.type,
              payload,
              nextAttemptAt: now,
              redeliveryOf: null,
              createdAt: now,
              traceparent
            })
          }
          yield* outbox.markDispatched(event.id, now)
        }
        return entries.length
      })
    )
  })

/** Step 3 for one claimed delivery: POST it, then record the attempt and the delivery's new state. */
export const attempt = (owner: string, claimed: ClaimedDelivery) =>
  Effect.gen(function* () {
    const repo = yield* WebhookRepository
    const transport = yield* WebhookTransport
    const tx = yield* Transactor
    const crypto = yield* Crypto
    const startedMillis = yield* Clock.currentTimeMillis
    const attemptedAt = formatTimestamp(startedMillis)
    const headers = signer(crypto).deliveryHeaders({
      id: claimed.eventId,
      timestamp: unixSeconds(startedMillis),
      body: claimed.payload,
      secrets: signingSecrets(claimed, attemptedAt)
    })
    const response = yield* transport.send({ url: claimed.url, headers, body: claimed.payload })
    const attemptsMade = claimed.attemptsMade + 1
    const succeeded = isSuccessStatus(response.statusCode)
    const delay = succeeded ? undefined : retryDelay(attemptsMade, yield* Random.next)
    const finishedMillis = yield* Clock.currentTimeMillis
    const nextAttemptAt = delay === undefined ? null : formatTimestamp(finishedMillis + delay)
    yield* tx.withTransaction(
      repo.recordAttempt({
        deliveryId: claimed.deliveryId,
        owner,
        status: succeeded ? "succeeded" : nextAttemptAt === null ? "failed" : "pending",
        attempt: {
          attemptedAt,
          statusCode: response.statusCode,
          durationMs: response.durationMs,
          error: response.statusCode === null ? response.error : answeredError(response.statusCode, succeeded),
          nextAttemptAt
        }
      })
    )
    yield* Metric.increment(
      succeeded
        ? ServiceMetrics.webhookDelivery.succeeded
        : nextAttemptAt === null
        ? ServiceMetrics.webhookDelivery.failed
        : ServiceMetrics.webhookDelivery.retrying
    )
  })

/**
 * Step 2: leases up to `free` due deliveries to `owner` (each the head of its webhook's queue),
 * shared fairly among the projects that have some (WebhookQuota.claimPlan), none going past its
 * limit with what it already has in flight.
 */
const claim = (owner: string, options: DispatcherOptions, free: number, inFlight: (projectId: string) => number) =>
  Effect.gen(function* () {
    const repo = yield* WebhookRepository
    const tx = yield* Transactor
    const nowMillis = yield* Clock.currentTimeMillis
    const now = formatTimestamp(nowMillis)
    const leaseUntil = formatTimestamp(nowMillis + Duration.toMillis(Duration.decode(options.lease)))
    const due = yield* repo.dueProjects({ now, limit: free })
    const claimed: Array<ClaimedDelivery> = []
    for (const [projectId, limit] of claimPlan(due, inFlight, free, projectLimitOf(options))) {
      claimed.push(...(yield* tx.withTransaction(repo.claimDue({ now, owner, leaseUntil, limit, projectId }))))
    }
    return claimed
  })

/** A link to the span of the write a delivery came from; none when that write was not traced. */
const linksTo = (traceparent: string | null): ReadonlyArray<Tracer.SpanLink> => {
  const write = traceparent === null ? undefined : parseTraceParent(traceparent)
  return write === undefined ? [] : [{ _tag: "SpanLink", span: Tracer.externalSpan(write), attributes: { "flagport.link": "write" } }]
}

/**
 * Step 3 for one delivery, on its own: one that cannot be recorded (its lease then lapses and it
 * is sent again later) is logged and must not cut short the sends to other webhooks.
 */
const sendOne = (owner: string, delivery: ClaimedDelivery) =>
  attempt(owner, delivery).pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.failCause(cause)
        : Effect.logWarning(`webhook delivery ${delivery.deliveryId} could not be recorded`, cause)
    ),
    // A trace of its own per send (the polling rounds that find nothing to do are not worth one),
    // linked to the write that caused it: a retry hours later is no part of that request's trace.
    Effect.withSpan("WebhookDispatcher.send", {
      root: true,
      links: linksTo(delivery.traceparent),
      attributes: { "flagport.project.id": delivery.projectId, webhookId: delivery.webhookId, deliveryId: delivery.deliveryId }
    })
  )

/**
 * One round, start to finish: fan out, claim due deliveries for `owner`, send them (at most
 * `concurrency` at once) and wait until every attempt is recorded. Tests step the dispatcher with
 * it; the running loop (`run`) does not wait for sends, see there.
 */
export const tick = (owner: string, options: DispatcherOptions = defaultOptions): Effect.Effect<TickResult, StorageError, Deps> =>
  Effect.gen(function* () {
    const fannedOut = yield* fanOut(options.batchSize)
    const claimed = yield* claim(owner, options, options.batchSize, () => 0)
    yield* Effect.forEach(claimed, (delivery) => sendOne(owner, delivery), {
      concurrency: options.concurrency,
      discard: true
    })
    return { fannedOut, sent: claimed.length }
  }).pipe(Effect.withSpan("WebhookDispatcher.tick"))

/**
 * The dispatcher loop. Sends run in their own fibers and the loop never waits for them: a
 * destination that answers slowly or not at all (up to the transport's 10 s timeout) holds only
 * its own webhook, whose next delivery cannot be claimed while the current one is leased, and one
 * of `concurrency` send slots. Rounds run back to back while there is work; otherwise the loop
 * waits `pollInterval`, or less when a send finishes (its webhook's next delivery may be due).
 * A failed round (storage unavailable, ...) is logged and retried after the interval; the loop
 * never ends on its own. Interrupting it interrupts the sends in flight (their deliveries are
 * claimed again after the lease).
 */
export const run = (owner: string, options: DispatcherOptions = defaultOptions): Effect.Effect<never, never, Deps> =>
  Effect.gen(function* () {
    const sends = yield* FiberSet.make<void, StorageError>()
    // Sends in flight, by project (only this fiber and the sends' finalizers touch it, one at a time).
    const inFlight = new Map<string, number>()
    let total = 0
    const sendFinished = yield* Queue.sliding<void>(1)
    const count = (projectId: string, by: number) =>
      Effect.sync(() => {
        const next = (inFlight.get(projectId) ?? 0) + by
        if (next === 0) inFlight.delete(projectId)
        else inFlight.set(projectId, next)
        total += by
      })

    const startSend = (delivery: ClaimedDelivery) =>
      Effect.zipRight(
        count(delivery.projectId, 1),
        FiberSet.run(
          sends,
          sendOne(owner, delivery).pipe(
            Effect.ensuring(Effect.zipRight(count(delivery.projectId, -1), Queue.offer(sendFinished, undefined)))
          )
        )
      )

    const round = Effect.gen(function* () {
      const fannedOut = yield* fanOut(options.batchSize)
      const free = options.concurrency - total
      const claimed = free > 0 ? yield* claim(owner, options, Math.min(free, options.batchSize), (p) => inFlight.get(p) ?? 0) : []
      yield* Effect.forEach(claimed, startSend, { discard: true })
      return { fannedOut, sent: claimed.length }
    }).pipe(Effect.withSpan("WebhookDispatcher.round"))

    const idle = Effect.race(Effect.sleep(options.pollInterval), Queue.take(sendFinished))

    return yield* round.pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause)
          : Effect.as(Effect.logWarning("webhook dispatcher round failed", cause), { fannedOut: 0, sent: 0 })
      ),
      Effect.flatMap((result) => (result.fannedOut > 0 || result.sent > 0 ? Effect.yieldNow() : idle)),
      Effect.forever
    )
  }).pipe(Effect.scoped, Effect.orDie)

/** A handle on the running dispatcher (mostly for diagnostics and tests). */
export interface WebhookDispatcherShape {
  /** This process's lease owner id. */
  readonly owner: string
}

export class WebhookDispatcher extends Context.Tag("@flagport/services/WebhookDispatcher")<
  WebhookDispatcher,
  WebhookDispatcherShape
>() {}

/**
 * Runs the dispatcher as a fiber for the lifetime of the layer's scope (interrupted on shutdown;
 * a delivery in flight is simply claimed again after its lease), and retention beside it
 * (WebhookRetention.ts). Include it next to the HTTP app in the standalone server and in a
 * mounted API.
 */
export const layerWith = (
  overrides: Partial<DispatcherOptions> = {},
  retention: Partial<RetentionOptions> = {}
): Layer.Layer<WebhookDispatcher, never, Deps> =>
  Layer.scoped(
    WebhookDispatcher,
    Effect.gen(function* () {
      const owner = `dispatcher-${yield* (yield* IdGenerator).next}`
      yield* Effect.forkScoped(run(owner, { ...defaultOptions, ...overrides }))
      yield* Effect.forkScoped(runPruning({ ...defaultRetentionOptions, ...retention }))
      return WebhookDispatcher.of({ owner })
    })
  )

/** The dispatcher with default options (1 s poll, 60 s lease, batches of 100, 30 days' retention). */
export const layer: Layer.Layer<WebhookDispatcher, never, Deps> = layerWith()

/**
 * `layerWith(overrides)` with the retention from FLAGPORT_WEBHOOK_RETENTION_DAYS
 * (WebhookRetention.config); fails at start on a bad value.
 */
export const layerConfig = (
  overrides: Partial<DispatcherOptions> = {},
  retention: Partial<Omit<RetentionOptions, "retention">> = {}
): Layer.Layer<WebhookDispatcher, ConfigError.ConfigError, Deps> =>
  Layer.unwrapEffect(
    Effect.map(retentionConfig, ({ retentionDays }) => layerWith(overrides, { ...retention, retention: Duration.days(retentionDays) }))
  )
