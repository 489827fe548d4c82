/**
 * Retention of failed sign-ins: a row counts only within the failure window (SignInLimit.ts), and
 * a made-up email's rows are never cleared by a success, so this deletes every row older than the
 * window, at start and then every `interval`, `batchSize` rows per short transaction (as audit
 * retention does, AuditRetention.ts). Always on: nothing else reads those rows.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import { failureWindowStart } from "../../domain/people/SignInLimit.js"
import { SignInFailureRepository } from "../../ports/SignInFailureRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Transactor } from "../../ports/Transactor.js"

export interface SignInFailureRetentionOptions {
  /** Pause between runs (one runs at start). */
  readonly interval: Duration.DurationInput
  /** Rows deleted per transaction; at least 1. */
  readonly batchSize: number
}

export const defaultOptions: SignInFailureRetentionOptions = { interval: Duration.minutes(5), batchSize: 1000 }

type Deps = SignInFailureRepository | Transactor

/** One run: deletes the failures no window counts any more, `batchSize` per transaction; answers how many went. */
export const prune = (batchSize: number): Effect.Effect<number, StorageError, Deps> =>
  Effect.gen(function* () {
    const failures = yield* SignInFailureRepository
    const tx = yield* Transactor
    const limit = Math.max(1, Math.floor(batchSize))
    const upTo = formatTimestamp(failureWindowStart(yield* Clock.currentTimeMillis))
    let total = 0
    for (;;) {
      const deleted = yield* tx.withTransaction(failures.prune(upTo, limit))
      total += deleted
      if (deleted < limit) return total
      yield* Effect.yieldNow()
    }
  }).pipe(Effect.withSpan("SignInFailureRetention.prune"))

/** A run at once, then one every `interval`; a failed run is logged and the next comes on time. */
export const runPruning = (options: SignInFailureRetentionOptions = defaultOptions): Effect.Effect<never, never, Deps> =>
  prune(options.batchSize).pipe(
    Effect.tap((deleted) => (deleted > 0 ? Effect.logDebug(`sign-in failure retention deleted ${deleted} rows`) : Effect.void)),
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logWarning("sign-in failure retention run failed", cause)
    ),
    Effect.zipRight(Effect.sleep(options.interval)),
    Effect.forever,
    Effect.orDie
  )

/** Runs the retention loop for the lifetime of the layer's scope. */
export const layer = (options: Partial<SignInFailureRetentionOptions> = {}): Layer.Layer<never, never, Deps> =>
  Layer.scopedDiscard(Effect.forkScoped(runPruning({ ...defaultOptions, ...options })))
