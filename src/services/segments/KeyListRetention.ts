/**
 * Sweeps the segment key rows nothing names any more (SegmentKeyRepository.sweep): a deleted
 * segment's keys are dropped after its deletion commits, in short writes of their own, and an
 * upload stages its keys before it swaps them in; a process that stops in between leaves those
 * rows behind. At start and then every `interval`, generations that began more than `margin` ago
 * and that no list names are dropped (an upload of a million keys takes seconds, far under the
 * margin); a failed run is logged and the next is on time. A worker of the server
 * (adapters/app/Workers.ts), as the other retention loops are.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SegmentKeyRepository } from "../../ports/SegmentKeyRepository.js"

/** One sweep: the generations nothing names that began before `now - margin`; answers how many. */
export const sweepOnce = Effect.fn("KeyListRetention.sweep")(function* (margin: Duration.DurationInput = Duration.hours(1)) {
  const keys = yield* SegmentKeyRepository
  const now = yield* Clock.currentTimeMillis
  return yield* keys.sweep(new Date(now - Duration.toMillis(margin)).toISOString())
})

/** A sweep at once, then one every `interval`. */
export const runSweeps = (interval: Duration.DurationInput = Duration.hours(1)): Effect.Effect<never, never, SegmentKeyRepository> =>
  sweepOnce().pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logWarning("Sweeping orphaned segment keys failed", Cause.squash(cause))
    ),
    Effect.zipRight(Effect.sleep(interval)),
    Effect.forever,
    Effect.orDie
  )

/** Runs the loop for the lifetime of the layer's scope. */
export const layer = (interval?: Duration.DurationInput): Layer.Layer<never, never, SegmentKeyRepository> =>
  Layer.scopedDiscard(Effect.forkScoped(runSweeps(interval)))
