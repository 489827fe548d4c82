import * as Schema from "effect/Schema"
import { Timestamp } from "../definitions/Ids.js"
import { WebhookEventType } from "./Webhook.js"
import { documentName } from "../DocumentName.js"

/**
 * The delivery log: one delivery per (event, webhook), with every attempt made for it
 * (GET /v1/projects/{projectId}/webhooks/{webhookId}/deliveries).
 */

/** `pending` while attempts remain, then `succeeded` (a 2xx) or `failed` (schedule used up). */
export const DeliveryStatus = Schema.Literal("pending", "succeeded", "failed")
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One POST to the destination. `statusCode` is null when no answer came (timeout, refused, ...). */
export const DeliveryAttempt = Schema.Struct({
  attemptedAt: Timestamp,
  statusCode: Schema.NullOr(Schema.Number),
  durationMs: Schema.Number,
  error: Schema.NullOr(Schema.String),
  /** When the next attempt is due after this one failed; null after a success or the last attempt. */
  nextAttemptAt: Schema.NullOr(Timestamp)
}).annotations(documentName("DeliveryAttempt"))
export type DeliveryAttempt = typeof DeliveryAttempt.Type

export const Delivery = Schema.Struct({
  id: Schema.String,
  webhookId: Schema.String,
  /** The event id, also sent as the `webhook-id` header (stable across retries and redeliveries). */
  eventId: Schema.String,
  eventType: WebhookEventType,
  status: DeliveryStatus,
  /** When the next attempt is due while `pending`; null otherwise. */
  nextAttemptAt: Schema.NullOr(Timestamp),
  /** The delivery this one re-sends by hand (POST .../redeliver), or null. */
  redeliveryOf: Schema.NullOr(Schema.String),
  attempts: Schema.Array(DeliveryAttempt),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations(documentName("Delivery"))
export type Delivery = typeof Delivery.Type

/**
 * The `error` of an attempt that got an answer: null for a 2xx, else `HTTP <status>` and a short
 * reason of our own. Nothing the receiver wrote (body, reason phrase, headers) is kept: the log is
 * read by everyone with the project's key, and a destination inside the network would otherwise
 * hand its answers (an internal service's error page, a metadata document) to them.
 */
export const answeredError = (statusCode: number, succeeded: boolean): string | null => {
  if (succeeded) return null
  const reason =
    statusCode >= 300 && statusCode < 400
      ? "a redirect, not followed"
      : statusCode >= 400 && statusCode < 500
      ? "the receiver refused the delivery"
      : statusCode >= 500 && statusCode < 600
      ? "the receiver failed"
      : "not a success status"
  return `HTTP ${statusCode}: ${reason}`
}
