/**
 * The change feed within one process: a set of listeners, each called synchronously by
 * `publish` (one loop over the set per change, whatever the number of subscribers). It is the
 * whole feed for memory and SQLite storage, where every writer that serves shares this process,
 * and the local half of the PostgreSQL feed.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type Change, ChangeFeed, type ChangeFeedShape, type ChangeListener } from "../../src/ports/ChangeFeed.js"

export interface FanOut {
  /** Calls every current listener with `change`; a throwing listener is logged, the others still run. */
  readonly deliver: (change: Change) => Effect.Effect<void>
  readonly subscribe: ChangeFeedShape["subscribe"]
}

export const makeFanOut = (): FanOut => {
  // Entries, not the functions themselves, so one function subscribed twice is called twice.
  const listeners = new Set<{ readonly listener: ChangeListener }>()
  const deliver = (change: Change) =>
    Effect.suspend(() => {
      const failures: Array<unknown> = []
      for (const entry of listeners) {
        try {
          entry.listener(change)
        } catch (error) {
          failures.push(error)
        }
      }
      return failures.length === 0
        ? Effect.void
        : Effect.logError("A change feed listener threw (the others were called)", Cause.die(failures[0]))
    })
  const subscribe = (listener: ChangeListener) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const entry = { listener }
        listeners.add(entry)
        return entry
      }),
      (entry) => Effect.sync(() => listeners.delete(entry))
    ).pipe(Effect.asVoid)
  return { deliver, subscribe }
}

export const make = (): ChangeFeedShape => {
  const fanOut = makeFanOut()
  return ChangeFeed.of({ publish: fanOut.deliver, subscribe: fanOut.subscribe })
}

/** A fresh in-process feed; a second layer built is a second, separate feed. */
export const layer: Layer.Layer<ChangeFeed> = Layer.sync(ChangeFeed, make)
