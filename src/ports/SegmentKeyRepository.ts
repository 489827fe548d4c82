import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { KeyListChange, KeyListInfo, KeyListName } from "../domain/definitions/SegmentKeys.js"
import type { StorageError } from "./StorageError.js"

/**
 * A segment's key lists. A replace never holds one long transaction: its keys are staged in short
 * writes under a generation of their own (invisible to every read), then `swap` makes that
 * generation the list's in one short statement inside the use case's write, and the old one is
 * dropped in short writes afterwards (`drop`). A failed upload drops its staged generation the same
 * way, so a list is always whole: the old one or the new one.
 */
export interface SegmentKeyRepositoryShape {
  /** A new generation for the segment's list, to stage keys under (recorded with whose it is). */
  readonly begin: (segmentId: string, list: KeyListName, now: string) => Effect.Effect<number, StorageError>
  /** Stages keys (duplicates ignored) under `generation`; no read sees them until `swap`. */
  readonly stage: (generation: number, keys: ReadonlyArray<string>) => Effect.Effect<void, StorageError>
  /**
   * Makes `generation` the list's keys, one more version, at `now` (in the caller's transaction);
   * the list's change log is cleared (a replace is no change a holder could apply).
   * Answers the list before and after, and the generation it replaced (to `drop`), if any.
   */
  readonly swap: (
    segmentId: string,
    list: KeyListName,
    generation: number,
    now: string
  ) => Effect.Effect<{ readonly before: KeyListInfo; readonly after: KeyListInfo; readonly replaced: number | undefined }, StorageError>
  /** Deletes a generation's keys, in short writes (a staged one, or one `swap` replaced). */
  readonly drop: (generation: number) => Effect.Effect<void, StorageError>
  /**
   * Adds and removes keys of the list's current keys, one more version (in the caller's
   * transaction; a list never written gets its first generation); a key both added and removed is removed. Answers the list before and after.
   * The keys actually added and removed go to the list's change log (`changes`), which keeps the
   * latest `KEY_LIST_CHANGES_KEPT` versions.
   */
  readonly change: (
    segmentId: string,
    list: KeyListName,
    add: ReadonlyArray<string>,
    remove: ReadonlyArray<string>,
    now: string
  ) => Effect.Effect<{ readonly before: KeyListInfo; readonly after: KeyListInfo }, StorageError>
  /** The lists ever written of these segments (one read for a whole snapshot). */
  readonly written: (segmentIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<{ readonly segmentId: string; readonly info: KeyListInfo }>, StorageError>
  /** The list's version and size (version 0, count 0 for a list never written). */
  readonly info: (segmentId: string, list: KeyListName) => Effect.Effect<KeyListInfo, StorageError>
  /** The list's keys after `after` (all from the start for null), in code-unit order, at most `limit`. */
  readonly page: (segmentId: string, list: KeyListName, after: string | null, limit: number) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /**
   * The logged changes of the list after version `since`, in version order. They lead from `since`
   * to the list's version only when they start at `since + 1` and leave no gap; otherwise (a
   * replace since, or older than the log keeps) the caller reads the list whole.
   */
  readonly changes: (segmentId: string, list: KeyListName, since: number) => Effect.Effect<ReadonlyArray<KeyListChange>, StorageError>
  /**
   * Drops the generations no list names that began before `olderThan` (short writes, as `drop`):
   * the keys of a deleted segment whose drop after the deletion never ran (the process stopped),
   * and uploads abandoned mid-way. A generation still being staged is younger than that (the
   * caller leaves a margin). Answers how many generations were dropped.
   */
  readonly sweep: (olderThan: string) => Effect.Effect<number, StorageError>
  /** Forgets both lists of a deleted segment (their records in the caller's transaction); answers the generations to `drop`. */
  readonly forget: (segmentId: string) => Effect.Effect<ReadonlyArray<{ readonly list: KeyListName; readonly generation: number }>, StorageError>
}

export class SegmentKeyRepository extends Context.Tag("@flagport/ports/SegmentKeyRepository")<
  SegmentKeyRepository,
  SegmentKeyRepositoryShape
>() {}
