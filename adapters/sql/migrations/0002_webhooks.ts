import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Webhooks, their deliveries and the attempts made for them (WEBHOOK helper).
 * Timestamps are ISO 8601 UTC text (they compare in time order as text); booleans are 0/1.
 * Deleting a webhook deletes its deliveries, and a delivery its attempts.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })

  yield* sql`CREATE TABLE flagport_webhooks (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    secret TEXT,
    previous_secret TEXT,
    previous_secret_expires_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX flagport_webhooks_project ON flagport_webhooks (project_id, seq)`

  yield* sql`CREATE TABLE flagport_webhook_deliveries (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    webhook_id TEXT NOT NULL REFERENCES flagport_webhooks (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts_made INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_owner TEXT,
    lease_expires_at TEXT,
    redelivery_of TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX flagport_webhook_deliveries_webhook ON flagport_webhook_deliveries (webhook_id, seq)`
  // The claim query looks only at pending rows: the head of each webhook, then whether it is due.
  yield* sql`CREATE INDEX flagport_webhook_deliveries_pending ON flagport_webhook_deliveries (webhook_id, seq) WHERE status = 'pending'`

  yield* sql`CREATE TABLE flagport_webhook_attempts (
    seq ${serial},
    delivery_id TEXT NOT NULL REFERENCES flagport_webhook_deliveries (id) ON DELETE CASCADE,
    attempted_at TEXT NOT NULL,
    status_code INTEGER,
    duration_ms INTEGER NOT NULL,
    error TEXT,
    next_attempt_at TEXT
  )`
  yield* sql`CREATE INDEX flagport_webhook_attempts_delivery ON flagport_webhook_attempts (delivery_id, seq)`
})
