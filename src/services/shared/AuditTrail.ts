import * as Effect from "effect/Effect"
import { CurrentActor } from "../../domain/audit/Actor.js"
import type { AuditEntry } from "../../domain/audit/AuditEntry.js"
import { AuditLog } from "../../ports/AuditLog.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import type { StorageError } from "../../ports/StorageError.js"

/** What a use case says about its write; the entry's id and actor are filled in by the recorder. */
export type AuditChange = Omit<AuditEntry, "id" | "actor">

/** Appends the audit entry of one write. */
export type AuditRecorder = (change: AuditChange) => Effect.Effect<void, StorageError>

/**
 * The recorder the one write path (Writes.ts) calls inside each write's transaction, after the
 * write's own statements. The entry gets a fresh id and the actor of the running use case
 * (`CurrentActor`: the authenticated key over HTTP, `cli` from the command line, `schedule` from
 * the scheduler), and commits or rolls back with the write.
 */
export const recorder: Effect.Effect<AuditRecorder, never, AuditLog | IdGenerator> = Effect.gen(function* () {
  const log = yield* AuditLog
  const ids = yield* IdGenerator
  return (change) =>
    Effect.gen(function* () {
      const actor = yield* CurrentActor
      const id = yield* ids.next
      yield* log.append({ id, actor, ...change })
    })
})
