/**
 * A segment's key lists (docs/guide/evaluation.md, "Segments with lists of keys"): replaced from a
 * streamed upload, changed a few keys at a time, read back as a stream. A replace stages its keys in
 * short writes while the body streams in (each chunk parsed and written in milliseconds, so nothing
 * holds the event loop or the database for long), then swaps them in within one short write; any
 * failure drops what it staged, so the list is the old one or the new one, never half of either.
 */
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { type ChangeRequestRequired, type Forbidden, InvalidRequest, type ResourceNotFound } from "../../domain/Errors.js"
import { type KeyListFormat, KeyListReader, KeyListTextError } from "../../domain/definitions/KeyListText.js"
import { countProblem, type KeyListInfo, type KeyListName, type KeyLists, type PatchKeysInput, validatePatch } from "../../domain/definitions/SegmentKeys.js"
import type { Segment } from "../../domain/definitions/Segment.js"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import { segmentNotFound } from "../../domain/NotFound.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { SegmentKeyRepository } from "../../ports/SegmentKeyRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize } from "../shared/Authorize.js"
import { yieldToEventLoop } from "../shared/EventLoop.js"
import * as Writes from "../shared/Writes.js"
import { segmentGuard } from "./SegmentGuard.js"

type WriteError = InvalidRequest | ResourceNotFound | ChangeRequestRequired | Forbidden | StorageError

export interface SegmentKeysShape {
  /** Both lists' versions and sizes; 404 for an unknown project or segment. */
  readonly lists: (projectId: string, segmentKey: string) => Effect.Effect<KeyLists, ResourceNotFound | Forbidden | StorageError>
  /**
   * Replaces a list by the keys of `body` (`lines`: one a line; `csv`: with a header row). 400 for a
   * key too long, more keys than a list may hold or text that is not CSV; 404; 409 for a person
   * while a protected environment's targeting names the segment. Nothing changes on failure.
   */
  readonly replace: <E>(
    projectId: string,
    segmentKey: string,
    list: KeyListName,
    format: KeyListFormat,
    body: Stream.Stream<Uint8Array, E>
  ) => Effect.Effect<KeyListInfo, WriteError | E>
  /** Adds and removes keys (at most `segmentKeysPerPatch` each); 400, 404, 409 as `replace`. */
  readonly change: (projectId: string, segmentKey: string, list: KeyListName, input: PatchKeysInput) => Effect.Effect<KeyListInfo, WriteError>
  /** The list now, and its keys as a stream read page by page (each key once). */
  readonly read: (
    projectId: string,
    segmentKey: string,
    list: KeyListName
  ) => Effect.Effect<{ readonly info: KeyListInfo; readonly keys: Stream.Stream<string, StorageError> }, ResourceNotFound | Forbidden | StorageError>
}

export class SegmentKeys extends Context.Tag("@flagport/services/SegmentKeys")<SegmentKeys, SegmentKeysShape>() {}

/** How long closing waits for the drops of replaced keys still running (a million keys: seconds). */
const DROP_WAIT_ON_CLOSE = "30 seconds"

/** Keys a staging write or a read page holds. */
const CHUNK = 10_000

const invalid = (details: InvalidRequest["details"]) => new InvalidRequest({ message: "Invalid key list", details })

export const make = Effect.gen(function* () {
  const segments = yield* SegmentRepository
  const keyLists = yield* SegmentKeyRepository
  const guard = yield* segmentGuard
  const writes = yield* Writes.writer
  // The drops of replaced keys run after the answer; a process that stops (a command line's apply
  // the moment it is done, a server shutting down) lets them finish first, for a while, rather than
  // leave them to the orphan sweep. Registered after the set, so this runs before the set's own
  // finalizer interrupts what is left.
  const drops = yield* FiberSet.make<void, never>()
  yield* Effect.addFinalizer(() => FiberSet.awaitEmpty(drops).pipe(Effect.timeoutOption(DROP_WAIT_ON_CLOSE), Effect.asVoid))

  /** Every environment's snapshot carries every segment, so a change of its keys concerns them all. */
  const changed = (projectId: string, revision: number, segmentKey: string) =>
    configChanged(projectId, revision, "segment", { environments: "all", segmentKeys: [segmentKey] })

  /** The segment as of this write; a segment deleted (or deleted and made again) meanwhile is the 404 it now is. */
  const same = (projectId: string, segment: Segment) =>
    Effect.flatMap(guard.load(projectId, segment.key), (now) => (now.id === segment.id ? Effect.succeed(now) : Effect.fail(segmentNotFound(projectId, segment.key))))

  /** The segment's `updatedAt` moves with its lists, so what pinned it (a change request) sees it changed. */
  const touch = (segment: Segment, now: string) => Effect.catchTag(segments.update({ ...segment, updatedAt: now }), "NotFound", Effect.die)

  const lists = Effect.fn("SegmentKeys.lists")(function* (projectId: string, segmentKey: string) {
    yield* authorize("SegmentKeys.read", projectId)
    const segment = yield* guard.load(projectId, segmentKey)
    return { included: yield* keyLists.info(segment.id, "included"), excluded: yield* keyLists.info(segment.id, "excluded") }
  })

  /** Parses and stages the body, a chunk of keys at a time; answers how many keys it sent. */
  const stageBody = <E>(generation: number, format: KeyListFormat, body: Stream.Stream<Uint8Array, E>) =>
    Effect.gen(function* () {
      const reader = new KeyListReader(format)
      let pending: Array<string> = []
      // One chunk is written while the next is read and parsed: the write waits for the one before it.
      let writing: Fiber.RuntimeFiber<void, StorageError> | undefined
      // Between chunks the event loop serves what waits (evaluations): a chunk's parse and its
      // statement's making are one short slice, never a run of them (EventLoop.ts).
      const write = (chunk: ReadonlyArray<string>) =>
        Effect.gen(function* () {
          if (writing !== undefined) yield* Fiber.join(writing)
          writing = yield* Effect.forkScoped(keyLists.stage(generation, chunk))
          yield* yieldToEventLoop
        })
      const take = (keys: ReadonlyArray<string>) => {
        for (const key of keys) pending.push(key)
        if (pending.length < CHUNK) return Effect.void
        const chunk = pending
        pending = []
        return write(chunk)
      }
      const parse = (read: () => ReadonlyArray<string>) =>
        Effect.try({ try: read, catch: (e) => (e instanceof KeyListTextError ? invalid([e.problem]) : invalid([{ path: "body", message: String(e) }])) })
      yield* body.pipe(Stream.decodeText(), Stream.runForEach((text) => Effect.flatMap(parse(() => reader.push(text)), take)))
      yield* Effect.flatMap(parse(() => reader.end()), take)
      if (pending.length > 0) yield* write(pending)
      if (writing !== undefined) yield* Fiber.join(writing)
    }).pipe(Effect.scoped)

  const replace = <E>(projectId: string, segmentKey: string, list: KeyListName, format: KeyListFormat, body: Stream.Stream<Uint8Array, E>) =>
    Effect.gen(function* () {
      yield* authorize("SegmentKeys.replace", projectId)
      yield* guard.guardWrite(projectId, segmentKey)
      const segment = yield* guard.load(projectId, segmentKey)
      const generation = yield* keyLists.begin(segment.id, list, formatTimestamp(yield* Clock.currentTimeMillis))
      const swapped = yield* Effect.zipRight(
        stageBody(generation, format, body),
        writes.serving(projectId, ({ now, revision }) =>
          Effect.gen(function* () {
            const current = yield* same(projectId, segment)
            const { after, before, replaced } = yield* keyLists.swap(segment.id, list, generation, now)
            yield* touch(current, now)
            return {
              value: { after, replaced },
              audit: [{ action: "segment.keys.replaced", resource: { type: "segment", key: segmentKey }, before, after }],
              change: changed(projectId, revision, segmentKey)
            } satisfies Writes.Written<{ after: KeyListInfo; replaced: number | undefined }>
          })
        )
      ).pipe(Effect.onError(() => Effect.ignore(keyLists.drop(generation))))
      // The old keys go once the new ones serve, in short writes of their own, after the answer: no
      // read sees them any more, and a million of them take seconds to delete. One left behind by a
      // failure here is invisible, as an abandoned upload's are.
      if (swapped.replaced !== undefined) {
        const replaced = swapped.replaced
        yield* FiberSet.run(drops, keyLists.drop(replaced).pipe(Effect.catchAll((error) => Effect.logWarning(`Keys of replaced generation ${replaced} left behind`, error))))
      }
      return swapped.after
    }).pipe(Effect.withSpan("SegmentKeys.replace"))

  const change = Effect.fn("SegmentKeys.change")(function* (projectId: string, segmentKey: string, list: KeyListName, input: PatchKeysInput) {
    yield* authorize("SegmentKeys.change", projectId)
    const problems = validatePatch(input)
    if (problems.length > 0) return yield* invalid(problems)
    yield* guard.guardWrite(projectId, segmentKey)
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const segment = yield* guard.load(projectId, segmentKey)
        const { after, before } = yield* keyLists.change(segment.id, list, input.add ?? [], input.remove ?? [], now)
        const tooMany = countProblem(after.count)
        // Refused inside the write: its transaction rolls back, so the list is as it was.
        if (tooMany !== undefined) return yield* invalid([{ path: "add", message: `the list would hold ${after.count.toLocaleString("en-US")} keys; it ${tooMany}` }])
        yield* touch(segment, now)
        return {
          value: after,
          audit: [{ action: "segment.keys.changed", resource: { type: "segment", key: segmentKey }, before, after }],
          change: changed(projectId, revision, segmentKey)
        } satisfies Writes.Written<KeyListInfo>
      })
    )
  })

  const read = Effect.fn("SegmentKeys.read")(function* (projectId: string, segmentKey: string, list: KeyListName) {
    yield* authorize("SegmentKeys.read", projectId)
    const segment = yield* guard.load(projectId, segmentKey)
    const info = yield* keyLists.info(segment.id, list)
    const keys = Stream.paginateChunkEffect(null as string | null, (after) =>
      Effect.map(keyLists.page(segment.id, list, after, CHUNK), (page) =>
        [Chunk.unsafeFromArray(page), page.length < CHUNK ? Option.none() : Option.some(page[page.length - 1]!)] as const)
    )
    return { info, keys }
  })

  return SegmentKeys.of({ lists, replace, change, read })
})

export const layer = Layer.scoped(SegmentKeys, make)
