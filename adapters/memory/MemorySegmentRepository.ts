import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Segment } from "../../src/domain/definitions/Segment.js"
import { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"
import { insertNew, removeExisting, scoped } from "./MemoryTables.js"

/** The reference SegmentRepository: segments by project and key. */

export const layer = Layer.effect(
  SegmentRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyMap<string, Segment>>("segments", new Map())
    return SegmentRepository.of({
      insert: (segment) => insertNew(table, scoped(segment.projectId, segment.key), () => jsonCopy(segment), "segment", segment.key),
      list: (projectId) => Effect.map(table.get, (map) => Array.from(map.values()).filter((s) => s.projectId === projectId)),
      get: (projectId, key) => Effect.map(table.get, (map) => Option.fromNullable(map.get(scoped(projectId, key)))),
      update: (segment) =>
        table.modify((map) => {
          const id = scoped(segment.projectId, segment.key)
          const row = map.get(id)
          if (row === undefined) return [false, map]
          const stored: Segment = { ...jsonCopy(segment), id: row.id, createdAt: row.createdAt }
          return [true, new Map(map).set(id, stored)]
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity: "segment", key: segment.key }))))),
      remove: (projectId, key) => removeExisting(table, scoped(projectId, key), "segment", key)
    })
  })
)
