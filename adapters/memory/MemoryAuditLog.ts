import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { matchesFilter } from "../../src/domain/audit/AuditEntry.js"
import { AuditLog, type PositionedEntry } from "../../src/ports/AuditLog.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/**
 * The audit log in memory: one MemoryDb cell holding the entries in append order, so an append
 * joins the write's transaction like every other memory port.
 */
export const layer = Layer.effect(
  AuditLog,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const table = db.makeRef<ReadonlyArray<PositionedEntry>>("audit_log", [])
    let lastPosition = 0
    return AuditLog.of({
      append: (entry) =>
        table.modify((rows) => {
          if (rows.some((row) => row.entry.id === entry.id)) return [false, rows]
          // Positions keep growing across prunes and rollbacks, as a SQL sequence does.
          return [true, [...rows, { position: ++lastPosition, entry: jsonCopy(entry) }]]
        }).pipe(
          Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new StorageError({ message: `Duplicate audit entry id '${entry.id}'` }))))
        ),
      list: (projectId, filter, limit, before) =>
        Effect.map(table.get, (rows) => {
          const found: Array<PositionedEntry> = []
          for (let i = rows.length - 1; i >= 0 && found.length < limit; i--) {
            const row = rows[i]!
            if (before !== undefined && row.position >= before) continue
            if (row.entry.projectId === projectId && matchesFilter(row.entry, filter)) found.push(row)
          }
          return found
        }),
      after: (projectId, after, limit) =>
        Effect.map(table.get, (rows) => rows.filter((row) => row.position > after && row.entry.projectId === projectId).slice(0, limit)),
      prune: (before, limit) =>
        table.modify((rows) => {
          const doomed = new Set<number>()
          const oldestFirst = [...rows].sort((a, b) => (a.entry.at < b.entry.at ? -1 : a.entry.at > b.entry.at ? 1 : a.position - b.position))
          for (const row of oldestFirst) {
            if (doomed.size >= Math.max(1, limit) || row.entry.at >= before) break
            doomed.add(row.position)
          }
          return [doomed.size, doomed.size === 0 ? rows : rows.filter((row) => !doomed.has(row.position))] as const
        })
    })
  })
)
