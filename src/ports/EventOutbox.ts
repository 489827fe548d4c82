import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { WebhookEvent } from "../domain/webhooks/Webhook.js"
import type { StorageError } from "./StorageError.js"

/** One recorded event; `seq` grows in append order. */
export interface OutboxEntry {
  readonly seq: number
  readonly event: WebhookEvent
  readonly dispatchedAt: string | null
  /** The W3C `traceparent` of the write that appended it (TraceContext), null when it was not traced. */
  readonly traceparent: string | null
}

/**
 * The transactional outbox: events are appended in the same transaction as the change that
 * causes them, so a committed change always has its event and a rolled back one never does.
 * SQL table: flagport_outbox(seq, id, project_id, type, payload, occurred_at, dispatched_at, trace_parent).
 */
export interface EventOutboxShape {
  /**
   * Appends an event (call inside the write's transaction), with the write's trace when it is
   * traced (absent: none). Fails on a duplicate event id.
   */
  readonly append: (event: WebhookEvent, traceparent?: string | null) => Effect.Effect<void, StorageError>
  /** Events not yet marked dispatched, oldest first, at most `limit`. */
  readonly pending: (limit: number) => Effect.Effect<ReadonlyArray<OutboxEntry>, StorageError>
  /** Every event (dispatched or not) of a project, oldest first. For tests and diagnostics. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<OutboxEntry>, StorageError>
  /** Marks an event dispatched (its deliveries were scheduled); unknown ids are ignored. */
  readonly markDispatched: (eventId: string, at: string) => Effect.Effect<void, StorageError>
  /**
   * Retention: deletes up to `limit` events that were dispatched (fanned out into deliveries, which
   * carry their own copy of the body) before `before`, oldest first. Undispatched events are never
   * deleted. Returns how many were deleted (fewer than `limit` means nothing older is left).
   */
  readonly pruneDispatched: (before: string, limit: number) => Effect.Effect<number, StorageError>
}

export class EventOutbox extends Context.Tag("@flagport/ports/EventOutbox")<EventOutbox, EventOutboxShape>() {}
