/**
 * Retention of webhook bookkeeping, run beside the dispatcher (WebhookDispatcher.layerWith forks
 * it in the same scope): once at start, then every `interval`, it deletes finished deliveries
 * (succeeded or failed) with their attempts, and fanned-out outbox events, older than
 * `retention`, `batchSize` rows per short transaction. Pending deliveries (leased or not) and
 * events not yet fanned out are never deleted, whatever their age: a webhook never loses an event.
 * Time comes from Effect's Clock, so tests drive the schedule with TestClock.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import { EventOutbox } from "../../ports/EventOutbox.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Transactor } from "../../ports/Transactor.js"
import { WebhookRepository } from "../../ports/WebhookRepository.js"

export interface RetentionOptions {
  /** How long finished deliveries and fanned-out events are kept; `Duration.infinity` keeps them forever. */
  readonly retention: Duration.DurationInput
  /** Pause between runs (one runs at start). */
  readonly interval: Duration.DurationInput
  /** Rows deleted per transaction; at least 1. */
  readonly batchSize: number
}

/** The retention when FLAGPORT_WEBHOOK_RETENTION_DAYS is not set. */
export const DEFAULT_RETENTION_DAYS = 30

export const defaultRetentionOptions: RetentionOptions = {
  retention: Duration.days(DEFAULT_RETENTION_DAYS),
  interval: Duration.hours(1),
  batchSize: 1000
}

/** What one retention run deleted. */
export interface PruneResult {
  readonly deliveries: number
  readonly events: number
}

type Deps = WebhookRepository | EventOutbox | Transactor

/** Runs `batch` until it deletes fewer than `limit` rows (nothing older left); returns the total. */
const drain = <E, R>(batch: Effect.Effect<number, E, R>, limit: number): Effect.Effect<number, E, R> =>
  Effect.flatMap(batch, (n) =>
    n < limit ? Effect.succeed(n) : Effect.map(Effect.zipRight(Effect.yieldNow(), drain(batch, limit)), (rest) => n + rest)
  )

/**
 * One retention run: deletes what finished more than `retention` ago, `batchSize` rows per
 * transaction, until none is left. A batch size below 1 would never finish (or, as a LIMIT, mean
 * "no limit" to SQLite), so it is raised to 1.
 */
export const prune = (retention: Duration.DurationInput, batchSize: number): Effect.Effect<PruneResult, StorageError, Deps> =>
  Effect.gen(function* () {
    const keep = Duration.decode(retention)
    if (!Duration.isFinite(keep)) return { deliveries: 0, events: 0 }
    const limit = Math.max(1, Math.floor(batchSize))
    const repo = yield* WebhookRepository
    const outbox = yield* EventOutbox
    const tx = yield* Transactor
    const before = formatTimestamp((yield* Clock.currentTimeMillis) - Duration.toMillis(keep))
    const deliveries = yield* drain(tx.withTransaction(repo.pruneFinished(before, limit)), limit)
    const events = yield* drain(tx.withTransaction(outbox.pruneDispatched(before, limit)), limit)
    return { deliveries, events }
  }).pipe(Effect.withSpan("WebhookRetention.prune"))

/**
 * The retention loop: a run at once, then one every `interval` (after the previous one ended). A
 * failed run is logged and the next one comes at the next interval; the loop never ends on its
 * own. With an infinite retention there is nothing to do, and the fiber just waits.
 */
export const runPruning = (options: RetentionOptions = defaultRetentionOptions): Effect.Effect<never, never, Deps> =>
  !Duration.isFinite(Duration.decode(options.retention))
    ? Effect.never
    : prune(options.retention, options.batchSize).pipe(
        Effect.tap((result) =>
          result.deliveries > 0 || result.events > 0
            ? Effect.logDebug(`webhook retention deleted ${result.deliveries} deliveries and ${result.events} outbox events`)
            : Effect.void
        ),
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logWarning("webhook retention run failed", cause)
        ),
        Effect.zipRight(Effect.sleep(options.interval)),
        Effect.forever,
        Effect.orDie
      )

/**
 * Settings from the environment: FLAGPORT_WEBHOOK_RETENTION_DAYS, a whole number of days >= 1
 * (default 30), how long finished deliveries and fanned-out outbox events are kept.
 */
export const config = Config.all({
  retentionDays: Config.integer("FLAGPORT_WEBHOOK_RETENTION_DAYS").pipe(
    Config.validate({
      message: "Expected a whole number of days, at least 1",
      validation: (days) => days >= 1
    }),
    Config.withDefault(DEFAULT_RETENTION_DAYS)
  )
})
