import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./StorageError.js"

/** What waits to reach the webhooks, for operators (GET /metrics). */
export interface Backlog {
  /** Outbox events not yet fanned out to deliveries. */
  readonly outboxEvents: number
  /** When the oldest of them occurred; null when there is none. */
  readonly oldestEventAt: string | null
  /** Deliveries still pending (not yet sent, or failed and waiting for a retry). */
  readonly pendingDeliveries: number
  /** When the oldest pending delivery was created; null when there is none. */
  readonly oldestDeliveryAt: string | null
}

export interface WebhookBacklogShape {
  /** The backlog now: two counts and two oldest times, each one indexed query on SQL. */
  readonly measure: Effect.Effect<Backlog, StorageError>
}

/**
 * The webhook backlog, measured. Read-only and separate from the repositories: only operations
 * ask it, and a failing webhook shows here (its deliveries stay pending) before anyone looks at it.
 */
export class WebhookBacklog extends Context.Tag("@flagport/ports/WebhookBacklog")<WebhookBacklog, WebhookBacklogShape>() {}
