import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { WebhookEventType } from "../domain/webhooks/Webhook.js"
import type { Delivery, DeliveryAttempt, DeliveryStatus } from "../domain/webhooks/WebhookDelivery.js"
import type { EnabledWindow } from "../domain/webhooks/WebhookWindow.js"
import type { NotFound, StorageError } from "./StorageError.js"

/**
 * A webhook as stored, secrets included. Only the services and the dispatcher see this;
 * the API record (`Webhook` in domain/webhooks/Webhook.ts) never carries a secret.
 */
export interface StoredWebhook extends EnabledWindow {
  readonly id: string
  readonly projectId: string
  readonly url: string
  readonly events: ReadonlyArray<WebhookEventType>
  readonly enabled: boolean
  /** The signing secret, or null for unsigned deliveries. */
  readonly secret: string | null
  /** The secret replaced by the latest rotation, honoured until `previousSecretExpiresAt`. */
  readonly previousSecret: string | null
  readonly previousSecretExpiresAt: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

/** A webhook that fan-out may give an event to, with the enabled window that decides (domain/webhooks/WebhookWindow.ts). */
export interface Subscriber extends EnabledWindow {
  readonly id: string
}

/** A delivery to create: one event for one webhook, due at `nextAttemptAt`. */
export interface NewDelivery {
  readonly id: string
  readonly webhookId: string
  readonly projectId: string
  readonly eventId: string
  readonly eventType: WebhookEventType
  /** The exact JSON body to POST (the event as recorded in the outbox). */
  readonly payload: string
  readonly nextAttemptAt: string
  readonly redeliveryOf: string | null
  readonly createdAt: string
  /**
   * The W3C `traceparent` of the write that caused it (its outbox event's, or the redelivery
   * request's): the send links to that span. Absent or null: none.
   */
  readonly traceparent?: string | null
}

/** A delivery with the body it sends. */
export interface StoredDelivery extends Delivery {
  readonly projectId: string
  readonly payload: string
}

/**
 * A delivery row as a repository returns it, with its attempts: `nextAttemptAt` only while it is
 * pending. Both adapters build their StoredDelivery here.
 */
export const toStoredDelivery = (
  row: NewDelivery & { readonly status: DeliveryStatus; readonly updatedAt: string },
  attempts: ReadonlyArray<DeliveryAttempt>
): StoredDelivery => ({
  id: row.id,
  webhookId: row.webhookId,
  projectId: row.projectId,
  eventId: row.eventId,
  eventType: row.eventType,
  status: row.status,
  nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
  redeliveryOf: row.redeliveryOf,
  attempts,
  payload: row.payload,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt
})

/** A delivery leased to one dispatcher, with what it needs to send it. */
export interface ClaimedDelivery {
  readonly deliveryId: string
  readonly webhookId: string
  readonly projectId: string
  readonly eventId: string
  readonly payload: string
  /** Attempts made before this one. */
  readonly attemptsMade: number
  readonly url: string
  readonly secret: string | null
  readonly previousSecret: string | null
  readonly previousSecretExpiresAt: string | null
  /** The trace of the write that caused it (NewDelivery.traceparent), null when none. */
  readonly traceparent: string | null
}

export interface ClaimRequest {
  /** The current time (ISO 8601); deliveries due at or before it may be claimed. */
  readonly now: string
  /** Who claims (one id per dispatcher instance); only the owner's `recordAttempt` settles the delivery. */
  readonly owner: string
  /** Until when the lease holds; after it another dispatcher may claim the delivery again. */
  readonly leaseUntil: string
  /** At most this many deliveries (each of a different webhook). */
  readonly limit: number
  /** Only this project's deliveries (the dispatcher claims project by project, for fairness). */
  readonly projectId?: string
}

export interface DueProjectsRequest {
  readonly now: string
  /** At most this many projects. */
  readonly limit: number
}

export interface AttemptRecord {
  readonly deliveryId: string
  readonly owner: string
  readonly attempt: DeliveryAttempt
  /** The delivery's status after this attempt. */
  readonly status: DeliveryStatus
}

/**
 * Webhooks, their deliveries and the attempts made for them. Timestamps are ISO 8601 UTC strings
 * with milliseconds, compared as text (which orders them in time). Methods that write should run
 * inside a `Transactor.withTransaction`.
 */
export interface WebhookRepositoryShape {
  /** Stores a new webhook. */
  readonly insert: (webhook: StoredWebhook) => Effect.Effect<void, StorageError>
  /** The project's webhooks, in creation order. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<StoredWebhook>, StorageError>
  /** One webhook of the project, if it exists (a webhook of another project is not found). */
  readonly get: (projectId: string, webhookId: string) => Effect.Effect<Option.Option<StoredWebhook>, StorageError>
  /** Replaces every mutable field (url, events, enabled, secrets, updatedAt). `NotFound` if absent. */
  readonly update: (webhook: StoredWebhook) => Effect.Effect<void, NotFound | StorageError>
  /** Deletes the webhook with its deliveries and their attempts. `NotFound` if absent. */
  readonly remove: (projectId: string, webhookId: string) => Effect.Effect<void, NotFound | StorageError>

  /**
   * Serializes fan-out across processes until the current transaction ends (a PostgreSQL
   * transaction-level advisory lock), so deliveries are created in outbox order even when several
   * servers share one database. A no-op where writers are serialized anyway (memory, SQLite).
   */
  readonly lockForFanOut: Effect.Effect<void, StorageError>
  /**
   * The project's webhooks subscribed to `type` that have ever been enabled (enabled or not now),
   * with their enabled windows, in creation order. Fan-out picks the ones whose window holds the
   * event (domain/webhooks/WebhookWindow.ts).
   */
  readonly subscribers: (
    projectId: string,
    type: WebhookEventType
  ) => Effect.Effect<ReadonlyArray<Subscriber>, StorageError>
  /** Creates a pending delivery. Deliveries of one webhook are sent in the order they were inserted. */
  readonly insertDelivery: (delivery: NewDelivery) => Effect.Effect<void, StorageError>

  /**
   * Leases due deliveries to `owner`, atomically, so that concurrent dispatchers (even in other
   * processes on one PostgreSQL) never hold the same delivery at once. A delivery is claimable when
   * it is pending, due (`nextAttemptAt <= now`), its webhook is enabled, no unexpired lease holds it,
   * and it is the OLDEST pending delivery of its webhook (head-of-line: per webhook, deliveries go out
   * one at a time, in order). Returns at most `limit`, oldest first.
   */
  readonly claimDue: (request: ClaimRequest) => Effect.Effect<ReadonlyArray<ClaimedDelivery>, StorageError>
  /**
   * The projects that have a delivery `claimDue` would lease now (due, unleased, the head of an
   * enabled webhook), the one waiting longest first.
   */
  readonly dueProjects: (request: DueProjectsRequest) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /**
   * Serializes the creation of webhooks in one project until the current transaction ends (a
   * PostgreSQL transaction-level advisory lock), so two creations cannot both pass the per-project
   * cap. A no-op where writers are serialized anyway (memory, SQLite).
   */
  readonly lockProject: (projectId: string) => Effect.Effect<void, StorageError>
  /**
   * Appends the attempt to the delivery's log and, if `owner` still holds its lease, settles the
   * delivery: status, attempt count, next attempt time, lease released. Returns false when the lease
   * had been lost (the attempt is logged, the delivery is left to its new owner).
   */
  readonly recordAttempt: (record: AttemptRecord) => Effect.Effect<boolean, StorageError>

  /** The webhook's deliveries with their attempts, in creation order. */
  readonly listDeliveries: (webhookId: string) => Effect.Effect<ReadonlyArray<StoredDelivery>, StorageError>
  /**
   * Retention: deletes up to `limit` FINISHED deliveries (`succeeded` or `failed`) whose last change
   * (`updatedAt`, the time they finished) is before `before`, oldest first, together with their
   * attempts. A `pending` delivery (leased or not) is never deleted, whatever its age. Returns how
   * many deliveries were deleted (fewer than `limit` means nothing older is left).
   */
  readonly pruneFinished: (before: string, limit: number) => Effect.Effect<number, StorageError>
  /** One delivery of the webhook, if it exists. */
  readonly getDelivery: (
    webhookId: string,
    deliveryId: string
  ) => Effect.Effect<Option.Option<StoredDelivery>, StorageError>
}

export class WebhookRepository extends Context.Tag("@flagport/ports/WebhookRepository")<
  WebhookRepository,
  WebhookRepositoryShape
>() {}
