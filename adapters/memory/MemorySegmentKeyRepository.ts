import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { emptyList, KEY_LIST_CHANGES_KEPT, type KeyListChange, type KeyListInfo, type KeyListName } from "../../src/domain/definitions/SegmentKeys.js"
import { SegmentKeyRepository } from "../../src/ports/SegmentKeyRepository.js"
import { MemoryDb } from "./MemoryDb.js"

/**
 * The reference SegmentKeyRepository. A list's record (in a MemoryDb cell, so it commits and rolls
 * back with the write) holds its keys as a set that is never changed once the record holds it: a
 * change makes a new set, so a rolled back change leaves the old record and its old set. Staged
 * generations live outside the transactions, as the SQL adapter's staged rows do.
 */

interface ListRecord {
  readonly info: KeyListInfo
  readonly generation: number
  readonly keys: ReadonlySet<string>
  /** The latest changes by PATCH, oldest first (a replace starts with none). */
  readonly log: ReadonlyArray<KeyListChange>
}

const listId = (segmentId: string, list: KeyListName) => `${segmentId}/${list}`

export const layer = Layer.effect(
  SegmentKeyRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const lists = db.makeRef<ReadonlyMap<string, ListRecord>>("segmentKeyLists", new Map())
    const generations = new Map<number, Set<string>>()
    /** When each staged generation began: one nobody swapped in after an hour is swept. */
    const begun = new Map<number, string>()
    let nextGeneration = 1
    /** Each set's keys sorted, computed once per set (sets are never changed once a list holds them). */
    const sorted = new WeakMap<ReadonlySet<string>, ReadonlyArray<string>>()
    const sortedKeys = (keys: ReadonlySet<string>) => {
      let known = sorted.get(keys)
      if (known === undefined) sorted.set(keys, (known = Array.from(keys).sort()))
      return known
    }
    const record = (segmentId: string, list: KeyListName) => Effect.map(lists.get, (map) => map.get(listId(segmentId, list)))
    const put = (segmentId: string, list: KeyListName, row: ListRecord) =>
      lists.update((map) => new Map(map).set(listId(segmentId, list), row))

    return SegmentKeyRepository.of({
      begin: (_segmentId, _list, now) =>
        Effect.sync(() => {
          const generation = nextGeneration++
          generations.set(generation, new Set())
          begun.set(generation, now)
          return generation
        }),
      stage: (generation, keys) =>
        Effect.sync(() => {
          const staged = generations.get(generation)
          if (staged === undefined) throw new Error(`no staged generation ${generation}`)
          for (const key of keys) staged.add(key)
        }),
      swap: (segmentId, list, generation, now) =>
        Effect.gen(function* () {
          const old = yield* record(segmentId, list)
          const keys = generations.get(generation) ?? new Set<string>()
          // The list's record holds it from now on; a rolled back swap leaves it to nobody, as dropping it would.
          generations.delete(generation)
          begun.delete(generation)
          const before = old?.info ?? emptyList(list)
          const after: KeyListInfo = { list, version: before.version + 1, count: keys.size, updatedAt: now }
          yield* put(segmentId, list, { info: after, generation, keys, log: [] })
          return { before, after, replaced: old?.generation }
        }),
      drop: (generation) =>
        Effect.sync(() => {
          begun.delete(generation)
          generations.delete(generation)
        }),
      change: (segmentId, list, add, remove, now) =>
        Effect.gen(function* () {
          const old = yield* record(segmentId, list)
          const keys = new Set(old?.keys ?? [])
          const removing = new Set(remove)
          const added = [...new Set(add)].filter((key) => !removing.has(key) && !keys.has(key))
          for (const key of added) keys.add(key)
          const removed = [...removing].filter((key) => keys.delete(key))
          const before = old?.info ?? emptyList(list)
          const after: KeyListInfo = { list, version: before.version + 1, count: keys.size, updatedAt: now }
          const log = [...(old?.log ?? []), { version: after.version, added, removed }].slice(-KEY_LIST_CHANGES_KEPT)
          yield* put(segmentId, list, { info: after, generation: old?.generation ?? nextGeneration++, keys, log })
          return { before, after }
        }),
      written: (segmentIds) =>
        Effect.map(lists.get, (map) =>
          segmentIds.flatMap((segmentId) =>
            (["included", "excluded"] as const).flatMap((list) => {
              const row = map.get(listId(segmentId, list))
              return row === undefined ? [] : [{ segmentId, info: row.info }]
            }))),
      info: (segmentId, list) => Effect.map(record(segmentId, list), (row) => row?.info ?? emptyList(list)),
      page: (segmentId, list, after, limit) =>
        Effect.map(record(segmentId, list), (row) => {
          if (row === undefined) return []
          const keys = sortedKeys(row.keys)
          let start = 0
          if (after !== null) {
            // The first key past `after`, by binary search.
            let high = keys.length
            while (start < high) {
              const mid = (start + high) >>> 1
              if (keys[mid]! <= after) start = mid + 1
              else high = mid
            }
          }
          return keys.slice(start, start + limit)
        }),
      changes: (segmentId, list, since) => Effect.map(record(segmentId, list), (row) => (row?.log ?? []).filter((change) => change.version > since)),
      // Here a list's keys live in its record, which a segment's deletion removes with it: only
      // staged generations nobody swapped in can be left behind.
      sweep: (olderThan) =>
        Effect.sync(() => {
          let swept = 0
          for (const [generation, at] of begun) {
            if (at >= olderThan) continue
            begun.delete(generation)
            if (generations.delete(generation)) swept++
          }
          return swept
        }),
      forget: (segmentId) =>
        lists.modify((map) => {
          const gone = (["included", "excluded"] as const).flatMap((list) => {
            const row = map.get(listId(segmentId, list))
            return row === undefined ? [] : [{ list, generation: row.generation }]
          })
          const next = new Map(map)
          for (const { list } of gone) next.delete(listId(segmentId, list))
          return [gone, next]
        })
    })
  })
)
