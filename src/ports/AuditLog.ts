import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AuditEntry, AuditFilter } from "../domain/audit/AuditEntry.js"
import type { StorageError } from "./StorageError.js"

/**
 * A stored entry with its place in the log. Positions follow the order the writes commit, not the
 * order they appended: a reader that sees an entry at some position sees every entry below it, so
 * one that goes on from the last position it read misses nothing, however long a write stayed open.
 */
export interface PositionedEntry {
  readonly position: number
  readonly entry: AuditEntry
}

/**
 * The audit log: one entry per management write, appended in the same transaction as the write,
 * so a committed change always has its entry and a rolled back one never does. Entries are never
 * changed; retention deletes the old ones.
 * SQL table: flagport_audit_log(seq, commit_seq, id, project_id, occurred_at, actor, action,
 * resource_type, resource_key, environment, change_request_id, before_state, after_state).
 */
export interface AuditLogShape {
  /** Appends one entry. Call it inside the write's transaction, after the write's own statements. */
  readonly append: (entry: AuditEntry) => Effect.Effect<void, StorageError>
  /**
   * A project's entries matching `filter`, newest first, at most `limit`; with `before`, only the
   * entries at positions below it (the next page after an entry at that position).
   */
  readonly list: (
    projectId: string,
    filter: AuditFilter,
    limit: number,
    before?: number
  ) => Effect.Effect<ReadonlyArray<PositionedEntry>, StorageError>
  /**
   * A project's committed entries at positions above `after`, oldest first (commit order), at most
   * `limit`: what a live reader has not seen yet (the management events stream).
   */
  readonly after: (projectId: string, after: number, limit: number) => Effect.Effect<ReadonlyArray<PositionedEntry>, StorageError>
  /**
   * Retention: deletes up to `limit` entries recorded before `before` (any project), oldest first.
   * Returns how many were deleted (fewer than `limit` means nothing older is left).
   */
  readonly prune: (before: string, limit: number) => Effect.Effect<number, StorageError>
}

export class AuditLog extends Context.Tag("@flagport/ports/AuditLog")<AuditLog, AuditLogShape>() {}
