/**
 * A list's change between two versions as hashes (KeySet.ts), from its change log
 * (`SegmentKeyRepository.changes`): what the server's own cache applies to the version it holds
 * (KeyListCache.ts) and what an SDK holding a version is sent instead of the whole list
 * (`GET /v1/config/segments/{segment}/{list}`). Undefined whenever the log does not lead there (a
 * replace in between, older than the log keeps) or the change is large: the caller then reads the
 * list whole, which is always right, only slower.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { changeBetween, type KeyListName } from "../../domain/definitions/SegmentKeys.js"
import { KeySet } from "../../domain/evaluation/KeySet.js"
import { SegmentKeyRepository } from "../../ports/SegmentKeyRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"

/** The most keys a change carries (8 bytes each on the wire, 800 KB at most); past it the whole list is read. */
export const MAX_CHANGE_KEYS = 100_000

/** The salt of a list's hashes: its segment and list, the same for every version, so a version's keys hash as the last one's did. */
export const saltOf = (segmentId: string, list: KeyListName) => `${segmentId}/${list}`

export interface HashedChange {
  readonly added: Uint32Array
  readonly removed: Uint32Array
}

export const make = Effect.gen(function* () {
  const keys = yield* SegmentKeyRepository
  const segments = yield* SegmentRepository

  /** The change of a segment's list (by the segment's id) from `since` to `to`, hashed under the list's salt. */
  const hashed = (segmentId: string, list: KeyListName, since: number, to: number) =>
    Effect.map(keys.changes(segmentId, list, since), (log): HashedChange | undefined => {
      const change = changeBetween(log, since, to, MAX_CHANGE_KEYS)
      if (change === undefined) return undefined
      const salt = saltOf(segmentId, list)
      return { added: KeySet.hashKeys(salt, change.added), removed: KeySet.hashKeys(salt, change.removed) }
    })

  /**
   * The same by the segment's key, for a holder of the list hashed under `salt`: undefined when the
   * segment under that key now is another one (deleted and made again: another salt).
   */
  const forHolder = (projectId: string, segmentKey: string, list: KeyListName, salt: string, since: number, to: number) =>
    Effect.flatMap(segments.get(projectId, segmentKey), (found) =>
      Option.isNone(found) || saltOf(found.value.id, list) !== salt ? Effect.succeed(undefined) : hashed(found.value.id, list, since, to))

  return { hashed, forHolder }
})
