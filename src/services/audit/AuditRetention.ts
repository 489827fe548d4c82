/**
 * Retention of the audit log, as webhook retention (WebhookRetention.ts) does it: once at start,
 * then every `interval`, entries recorded more than `retention` ago are deleted, `batchSize` rows
 * per short transaction. By default (FLAGPORT_AUDIT_RETENTION_DAYS unset) entries are kept
 * forever and nothing runs. Time comes from Effect's Clock, so tests drive it with TestClock.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import { AuditLog } from "../../ports/AuditLog.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Transactor } from "../../ports/Transactor.js"

export interface AuditRetentionOptions {
  /** How long entries are kept; `Duration.infinity` keeps them forever. */
  readonly retention: Duration.DurationInput
  /** Pause between runs (one runs at start). */
  readonly interval: Duration.DurationInput
  /** Rows deleted per transaction; at least 1. */
  readonly batchSize: number
}

export const defaultOptions: AuditRetentionOptions = {
  retention: Duration.infinity,
  interval: Duration.hours(1),
  batchSize: 1000
}

type Deps = AuditLog | Transactor

/**
 * One retention run: deletes the entries recorded more than `retention` ago, `batchSize` per
 * transaction, until none is left; returns how many went. An infinite retention deletes nothing.
 */
export const prune = (retention: Duration.DurationInput, batchSize: number): Effect.Effect<number, StorageError, Deps> =>
  Effect.gen(function* () {
    const keep = Duration.decode(retention)
    if (!Duration.isFinite(keep)) return 0
    const limit = Math.max(1, Math.floor(batchSize))
    const log = yield* AuditLog
    const tx = yield* Transactor
    const before = formatTimestamp((yield* Clock.currentTimeMillis) - Duration.toMillis(keep))
    let total = 0
    for (;;) {
      const deleted = yield* tx.withTransaction(log.prune(before, limit))
      total += deleted
      if (deleted < limit) return total
      yield* Effect.yieldNow()
    }
  }).pipe(Effect.withSpan("AuditRetention.prune"))

/**
 * The retention loop: a run at once, then one every `interval`. A failed run is logged and the
 * next one comes at the next interval; with an infinite retention the fiber just waits.
 */
export const runPruning = (options: AuditRetentionOptions = defaultOptions): Effect.Effect<never, never, Deps> =>
  !Duration.isFinite(Duration.decode(options.retention))
    ? Effect.never
    : prune(options.retention, options.batchSize).pipe(
        Effect.tap((deleted) => (deleted > 0 ? Effect.logDebug(`audit retention deleted ${deleted} entries`) : Effect.void)),
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logWarning("audit retention run failed", cause)
        ),
        Effect.zipRight(Effect.sleep(options.interval)),
        Effect.forever,
        Effect.orDie
      )

/**
 * FLAGPORT_AUDIT_RETENTION_DAYS: a whole number of days >= 1 after which entries are deleted;
 * unset keeps them forever.
 */
export const config = Config.option(
  Config.integer("FLAGPORT_AUDIT_RETENTION_DAYS").pipe(
    Config.validate({ message: "Expected a whole number of days, at least 1", validation: (days) => days >= 1 })
  )
)

/** Runs the retention loop for the lifetime of the layer's scope. */
export const layerWith = (options: Partial<AuditRetentionOptions> = {}): Layer.Layer<never, never, Deps> =>
  Layer.scopedDiscard(Effect.forkScoped(runPruning({ ...defaultOptions, ...options })))

/** `layerWith` with the retention from FLAGPORT_AUDIT_RETENTION_DAYS; fails at start on a bad value. */
export const layerConfig = (options: Partial<Omit<AuditRetentionOptions, "retention">> = {}) =>
  Layer.unwrapEffect(
    Effect.map(config, (days) =>
      layerWith({ ...options, retention: Option.match(days, { onNone: () => Duration.infinity, onSome: Duration.days }) })
    )
  )
