/**
 * The segments' key lists as the server's evaluator holds them (KeySet.ts), loaded from storage
 * when a snapshot names a version this process does not hold yet, and shared by every environment
 * of the project (a segment serves them all). Each list is read a page of 10,000 keys at a time and
 * hashed into the table as it is read, so a million keys are never a million strings at once. A list replaced
 * while it is read may be read partly old and partly new; its version then moved, and so did the
 * project's revision, so the next snapshot reads it again.
 *
 * A load runs in the background, never on a request's path (a million keys take seconds to read):
 * `sourceOf` answers at once with the lists it holds and, when some are still loading, the effect
 * that completes once they are (the server keeps serving its previous snapshot until then). A list
 * changed by PATCH since the version held takes only the change from the list's change log
 * (KeyListChanges.ts): milliseconds for a million-key list, not seconds. One
 * load per list version at a time, whoever asks; a failed load is forgotten, so the next ask retries.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import type { KeyListName, KeyListSource } from "../../domain/evaluation/CompileSegments.js"
import { type KeySet, KeySetBuilder } from "../../domain/evaluation/KeySet.js"
import { SegmentKeyRepository } from "../../ports/SegmentKeyRepository.js"
import * as KeyListChanges from "./KeyListChanges.js"
import { saltOf } from "./KeyListChanges.js"
import type { StorageError } from "../../ports/StorageError.js"
import { yieldToEventLoop } from "../shared/EventLoop.js"

const PAGE = 10_000

/** A list the snapshot names: its segment and version. */
export interface NamedList {
  readonly segmentId: string
  readonly segmentKey: string
  readonly list: KeyListName
  readonly version: number
  /** How many keys the snapshot says it holds: the table's size from the start (no growing while it loads). */
  readonly count: number
}

export { saltOf }

/** What `sourceOf` answers: the lists held now, and, when some named lists are still loading, when they will be. */
export interface Sources {
  readonly source: KeyListSource
  readonly loading: Effect.Effect<void, StorageError> | undefined
}

export const make = Effect.gen(function* () {
  const keys = yield* SegmentKeyRepository
  const changes = yield* KeyListChanges.make
  const held = new Map<string, { readonly version: number; readonly set: KeySet }>()
  const loads = new Map<string, { readonly version: number; readonly done: Deferred.Deferred<void, StorageError> }>()

  const load = (named: NamedList) =>
    Effect.gen(function* () {
      const salt = saltOf(named.segmentId, named.list)
      // A few keys changed by PATCH since the version held: those, not a million keys read again.
      const known = held.get(salt)
      const change = known === undefined || known.version >= named.version ? undefined : yield* changes.hashed(named.segmentId, named.list, known.version, named.version)
      if (known !== undefined && change !== undefined) {
        const latest = held.get(salt)
        if (latest === undefined || latest.version <= named.version) held.set(salt, { version: named.version, set: known.set.withChanges(change.added, change.removed) })
        return
      }
      const builder = new KeySetBuilder(salt, named.count)
      let after: string | null = null
      for (;;) {
        const page: ReadonlyArray<string> = yield* keys.page(named.segmentId, named.list, after, PAGE)
        builder.addKeys(page)
        if (page.length < PAGE) break
        after = page[page.length - 1]!
        // Each page's hashing and inserting is one short slice of the event loop, whatever the
        // storage's speed; between slices the loop serves what waits (yieldNow would not: EventLoop.ts).
        yield* yieldToEventLoop
      }
      const set = builder.build()
      // A slower load of an older version never replaces a newer one.
      const latest = held.get(salt)
      if (latest === undefined || latest.version <= named.version) held.set(salt, { version: named.version, set })
    }).pipe(Effect.withSpan("KeyListCache.load", { attributes: { segmentId: named.segmentId, list: named.list, version: named.version } }))

  /** The load of this list version: the one in flight, or a new one in the background. */
  const loadOf = (named: NamedList) =>
    Effect.gen(function* () {
      const salt = saltOf(named.segmentId, named.list)
      const running = loads.get(salt)
      if (running !== undefined && running.version === named.version) return Deferred.await(running.done)
      const done = yield* Deferred.make<void, StorageError>()
      loads.set(salt, { version: named.version, done })
      yield* Effect.forkDaemon(
        load(named).pipe(
          Effect.exit,
          Effect.flatMap((exit) =>
            Effect.sync(() => {
              if (loads.get(salt)?.done === done) loads.delete(salt)
            }).pipe(Effect.zipRight(Deferred.done(done, exit)))
          )
        )
      )
      return Deferred.await(done)
    })

  /** The source of these lists for the compiler: those held at their version now, and the loads of the others. */
  const sourceOf = (lists: ReadonlyArray<NamedList>) =>
    Effect.gen(function* () {
      const sets = new Map<string, KeySet>()
      const waits: Array<Effect.Effect<void, StorageError>> = []
      for (const named of lists) {
        const known = held.get(saltOf(named.segmentId, named.list))
        if (known !== undefined && known.version === named.version) sets.set(`${named.segmentKey}/${named.list}`, known.set)
        else waits.push(yield* loadOf(named))
      }
      const source: KeyListSource = (segmentKey, list) => sets.get(`${segmentKey}/${list}`)
      const sources: Sources = { source, loading: waits.length === 0 ? undefined : Effect.all(waits, { discard: true }) }
      return sources
    })

  return { sourceOf }
})
