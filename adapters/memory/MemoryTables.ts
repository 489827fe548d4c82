import * as Effect from "effect/Effect"
import { DuplicateKey, NotFound } from "../../src/ports/StorageError.js"
import type { TxRef } from "./MemoryDb.js"

/**
 * Helpers for the keyed tables of the memory repositories: immutable Maps held in MemoryDb cells
 * (insertion order is creation order; `set` on an existing key keeps its place).
 */

/** The id of a row whose key is unique within its project. */
export const scoped = (projectId: string, key: string) => `${projectId}/${key}`

/** Adds `row()` under a new `id`; DuplicateKey (`entity` `key`) when the id is taken. */
export const insertNew = <A>(table: TxRef<ReadonlyMap<string, A>>, id: string, row: () => A, entity: string, key: string) =>
  table.modify((map) => (map.has(id) ? [false, map] : [true, new Map(map).set(id, row())])).pipe(
    Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ entity, key }))))
  )

/** Deletes the row under `id`; NotFound (`entity` `key`) when there is none. */
export const removeExisting = <A>(table: TxRef<ReadonlyMap<string, A>>, id: string, entity: string, key: string) =>
  table.modify((map) => {
    if (!map.has(id)) return [false, map]
    const next = new Map(map)
    next.delete(id)
    return [true, next]
  }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity, key })))))
