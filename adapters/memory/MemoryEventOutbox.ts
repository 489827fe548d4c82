import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventOutbox, type OutboxEntry } from "../../src/ports/EventOutbox.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/** The reference EventOutbox: events in append order, each with its sequence number and dispatch time. */

export const layer = Layer.effect(
  EventOutbox,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyArray<OutboxEntry>>("outbox", [])
    return EventOutbox.of({
      append: (event, traceparent) =>
        table.modify((rows) => {
          if (rows.some((row) => row.event.id === event.id)) return [false, rows]
          const seq = rows.length === 0 ? 1 : rows[rows.length - 1]!.seq + 1
          return [true, [...rows, { seq, event: jsonCopy(event), dispatchedAt: null, traceparent: traceparent ?? null }]]
        }).pipe(
          Effect.flatMap((ok) =>
            ok ? Effect.void : Effect.fail(new StorageError({ message: `Duplicate outbox event id '${event.id}'` }))
          )
        ),
      pending: (limit) => Effect.map(table.get, (rows) => rows.filter((row) => row.dispatchedAt === null).slice(0, limit)),
      list: (projectId) => Effect.map(table.get, (rows) => rows.filter((row) => row.event.projectId === projectId)),
      markDispatched: (eventId, at) =>
        table.update((rows) =>
          rows.map((row) => (row.event.id === eventId && row.dispatchedAt === null ? { ...row, dispatchedAt: at } : row))
        ),
      pruneDispatched: (before, limit) =>
        table.modify((rows) => {
          const doomed = new Set<number>()
          for (const row of rows) {
            if (doomed.size >= limit) break
            if (row.dispatchedAt !== null && row.dispatchedAt < before) doomed.add(row.seq)
          }
          return [doomed.size, doomed.size === 0 ? rows : rows.filter((row) => !doomed.has(row.seq))] as const
        })
    })
  })
)
