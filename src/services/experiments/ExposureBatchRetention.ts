/**
 * Forgets the exposure and event batch ids older than 24 hours (Exposures.pruneBatches), and the
 * raw metric events no late exposure can reclassify any more (Track.pruneEvents), at start and then
 * every `interval`, a failed run logged and the next on time. A worker of the server
 * (adapters/app/Workers.ts), as audit and failed sign-in retention are, rather than a fiber of the
 * use case: building the use cases (an Effect host, a test, the CLI) starts nothing in the background.
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Exposures } from "./Exposures.js"
import { Track } from "./Track.js"

/** A run at once, then one every `interval`. */
export const runPruning = (interval: Duration.DurationInput = Duration.hours(1)): Effect.Effect<never, never, Exposures | Track> =>
  Effect.zipRight(
    Effect.flatMap(Exposures, (exposures) => exposures.pruneBatches),
    Effect.flatMap(Track, (track) => track.pruneEvents)
  ).pipe(
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.logWarning("Forgetting old ingest batch ids or raw events failed", Cause.squash(cause))
    ),
    Effect.zipRight(Effect.sleep(interval)),
    Effect.forever,
    Effect.orDie
  )

/** Runs the loop for the lifetime of the layer's scope. */
export const layer = (interval?: Duration.DurationInput): Layer.Layer<never, never, Exposures | Track> =>
  Layer.scopedDiscard(Effect.forkScoped(runPruning(interval)))
