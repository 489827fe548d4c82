import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { WebhookEventType } from "../../src/domain/webhooks/Webhook.js"
import { type DeliveryAttempt, DeliveryStatus } from "../../src/domain/webhooks/WebhookDelivery.js"
import { NotFound, StorageError } from "../../src/ports/StorageError.js"
import {
  type ClaimedDelivery,
  type StoredWebhook,
  toStoredDelivery,
  WebhookRepository
} from "../../src/ports/WebhookRepository.js"
import { decodeRows, IdRow, SqlBoolean, SqlInteger } from "./SqlRows.js"

/**
 * WebhookRepository over @effect/sql (PostgreSQL and SQLite; tables in migrations/0002_webhooks.ts,
 * enabled windows added by migrations/0004_webhook_windows.ts).
 *
 * Result columns are aliased in camelCase with quotes, so rows read the same whether or not the
 * client transforms result names. Claims are one conditional UPDATE: on PostgreSQL its candidate
 * rows are picked with FOR UPDATE SKIP LOCKED, and the UPDATE re-checks "still pending, lease
 * expired" on the latest row version, so two processes never lease one delivery; SQLite runs
 * the statement atomically.
 */

const WebhookRow = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  url: Schema.String,
  events: Schema.parseJson(Schema.Array(WebhookEventType)),
  enabled: SqlBoolean,
  enabledAt: Schema.NullOr(Schema.String),
  disabledAt: Schema.NullOr(Schema.String),
  secret: Schema.NullOr(Schema.String),
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretExpiresAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const DeliveryRow = Schema.Struct({
  id: Schema.String,
  webhookId: Schema.String,
  projectId: Schema.String,
  eventId: Schema.String,
  eventType: WebhookEventType,
  payload: Schema.String,
  status: DeliveryStatus,
  attemptsMade: SqlInteger,
  nextAttemptAt: Schema.String,
  redeliveryOf: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const AttemptRow = Schema.Struct({
  deliveryId: Schema.String,
  attemptedAt: Schema.String,
  statusCode: Schema.NullOr(SqlInteger),
  durationMs: SqlInteger,
  error: Schema.NullOr(Schema.String),
  nextAttemptAt: Schema.NullOr(Schema.String)
})

const ClaimedRow = Schema.Struct({
  id: Schema.String,
  webhookId: Schema.String,
  projectId: Schema.String,
  eventId: Schema.String,
  payload: Schema.String,
  attemptsMade: SqlInteger,
  url: Schema.String,
  secret: Schema.NullOr(Schema.String),
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretExpiresAt: Schema.NullOr(Schema.String),
  traceparent: Schema.NullOr(Schema.String)
})

const SubscriberRow = Schema.Struct({
  id: Schema.String,
  events: Schema.parseJson(Schema.Array(Schema.String)),
  enabledAt: Schema.NullOr(Schema.String),
  disabledAt: Schema.NullOr(Schema.String)
})

const decodeWebhooks = decodeRows(WebhookRow, "flagport_webhooks")
const decodeDeliveries = decodeRows(DeliveryRow, "flagport_webhook_deliveries")
const decodeAttempts = decodeRows(AttemptRow, "flagport_webhook_attempts")
const decodeClaimed = decodeRows(ClaimedRow, "flagport_webhook_deliveries", {
  url: "flagport_webhooks",
  secret: "flagport_webhooks",
  previousSecret: "flagport_webhooks",
  previousSecretExpiresAt: "flagport_webhooks"
})
const decodeSubscribers = decodeRows(SubscriberRow, "flagport_webhooks")
const decodeProjectIds = decodeRows(Schema.Struct({ projectId: Schema.String }), "flagport_webhook_deliveries")
const decodeWebhookIds = decodeRows(IdRow, "flagport_webhooks")
const decodeDeliveryIds = decodeRows(IdRow, "flagport_webhook_deliveries")

/** A failure of the statements (SqlError) becomes a StorageError saying what failed; a malformed row stays what it is. */
const storageError = (what: string) => (cause: SqlError | StorageError) =>
  cause._tag === "StorageError" ? cause : new StorageError({ message: `Webhook storage failed to ${what}`, cause })

const toWebhook = (row: typeof WebhookRow.Type): StoredWebhook => row

const toAttempt = (row: typeof AttemptRow.Type): DeliveryAttempt => ({
  attemptedAt: row.attemptedAt,
  statusCode: row.statusCode,
  durationMs: row.durationMs,
  error: row.error,
  nextAttemptAt: row.nextAttemptAt
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const webhookColumns = sql.literal(`id, project_id AS "projectId", url, events, enabled,
    enabled_at AS "enabledAt", disabled_at AS "disabledAt", secret,
    previous_secret AS "previousSecret", previous_secret_expires_at AS "previousSecretExpiresAt",
    created_at AS "createdAt", updated_at AS "updatedAt"`)
  const deliveryColumns = sql.literal(`id, webhook_id AS "webhookId", project_id AS "projectId",
    event_id AS "eventId", event_type AS "eventType", payload, status, attempts_made AS "attemptsMade",
    next_attempt_at AS "nextAttemptAt", redelivery_of AS "redeliveryOf", created_at AS "createdAt",
    updated_at AS "updatedAt"`)

  const withAttempts = (rows: ReadonlyArray<typeof DeliveryRow.Type>) =>
    Effect.gen(function* () {
      if (rows.length === 0) return []
      const attempts = yield* sql`SELECT delivery_id AS "deliveryId", attempted_at AS "attemptedAt",
          status_code AS "statusCode", duration_ms AS "durationMs", error, next_attempt_at AS "nextAttemptAt"
        FROM flagport_webhook_attempts WHERE ${sql.in("delivery_id", rows.map((r) => r.id))} ORDER BY seq`.pipe(
        Effect.flatMap(decodeAttempts)
      )
      const byDelivery = new Map<string, Array<DeliveryAttempt>>()
      for (const a of attempts) {
        const list = byDelivery.get(a.deliveryId) ?? []
        list.push(toAttempt(a))
        byDelivery.set(a.deliveryId, list)
      }
      return rows.map((row) => toStoredDelivery(row, byDelivery.get(row.id) ?? []))
    })

  const remove = (projectId: string, webhookId: string) =>
    Effect.gen(function* () {
      // Children first: the cascade needs PRAGMA foreign_keys on SQLite; this does not.
      yield* sql`DELETE FROM flagport_webhook_attempts WHERE delivery_id IN (
        SELECT d.id FROM flagport_webhook_deliveries d JOIN flagport_webhooks w ON w.id = d.webhook_id
        WHERE w.id = ${webhookId} AND w.project_id = ${projectId})`
      yield* sql`DELETE FROM flagport_webhook_deliveries WHERE webhook_id IN (
        SELECT id FROM flagport_webhooks WHERE id = ${webhookId} AND project_id = ${projectId})`
      const deleted = yield* sql`DELETE FROM flagport_webhooks
        WHERE id = ${webhookId} AND project_id = ${projectId} RETURNING id`.pipe(Effect.flatMap(decodeWebhookIds))
      return deleted.length
    }).pipe(
      sql.withTransaction,
      Effect.mapError(storageError("delete a webhook")),
      Effect.flatMap((n) => (n === 0 ? Effect.fail(new NotFound({ entity: "webhook", key: webhookId })) : Effect.void))
    )

  /** Due, unleased heads of enabled webhooks (the deliveries `claimDue` may lease), as a WHERE clause on `d` and `w`. */
  const dueHeads = (now: string) => sql`d.status = 'pending' AND w.enabled = 1 AND d.next_attempt_at <= ${now}
    AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ${now})
    AND NOT EXISTS (SELECT 1 FROM flagport_webhook_deliveries o
      WHERE o.webhook_id = d.webhook_id AND o.status = 'pending' AND o.seq < d.seq)`

  const dueProjects = ({ limit, now }: Parameters<WebhookRepository["Type"]["dueProjects"]>[0]) =>
    sql`SELECT d.project_id AS "projectId" FROM flagport_webhook_deliveries d
        JOIN flagport_webhooks w ON w.id = d.webhook_id
      WHERE ${dueHeads(now)}
      GROUP BY d.project_id ORDER BY MIN(d.seq) LIMIT ${limit}`.pipe(
      Effect.flatMap(decodeProjectIds),
      Effect.map((rows) => rows.map((row) => row.projectId)),
      Effect.mapError(storageError("list projects with due deliveries"))
    )

  const claimDue = ({ leaseUntil, limit, now, owner, projectId }: Parameters<WebhookRepository["Type"]["claimDue"]>[0]) =>
    Effect.gen(function* () {
      const lock = sql.onDialectOrElse({
        pg: () => sql.literal("FOR UPDATE OF d SKIP LOCKED"),
        orElse: () => sql.literal("")
      })
      // Chosen first, then leased by id: as a subquery of the UPDATE, PostgreSQL may run the
      // choice more than once and lease more than `limit` rows (measured: 20 for a limit of 2).
      const chosen = yield* sql`SELECT d.id FROM flagport_webhook_deliveries d
          JOIN flagport_webhooks w ON w.id = d.webhook_id
        WHERE ${dueHeads(now)} ${projectId === undefined ? sql.literal("") : sql`AND d.project_id = ${projectId}`}
        ORDER BY d.seq LIMIT ${limit} ${lock}`.pipe(Effect.flatMap(decodeDeliveryIds))
      if (chosen.length === 0) return []
      const leased = yield* sql`UPDATE flagport_webhook_deliveries
        SET lease_owner = ${owner}, lease_expires_at = ${leaseUntil}
        WHERE ${sql.in("id", chosen.map((row) => row.id))}
          AND status = 'pending' AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})
        RETURNING id`.pipe(Effect.flatMap(decodeDeliveryIds))
      if (leased.length === 0) return []
      const rows = yield* sql`SELECT d.id, d.webhook_id AS "webhookId", d.project_id AS "projectId", d.event_id AS "eventId", d.payload,
          d.attempts_made AS "attemptsMade", w.url, w.secret, w.previous_secret AS "previousSecret",
          w.previous_secret_expires_at AS "previousSecretExpiresAt", d.trace_parent AS traceparent
        FROM flagport_webhook_deliveries d JOIN flagport_webhooks w ON w.id = d.webhook_id
        WHERE ${sql.in("d.id", leased.map((r) => r.id))} AND d.lease_owner = ${owner}
        ORDER BY d.seq`.pipe(Effect.flatMap(decodeClaimed))
      return rows.map(
        (row): ClaimedDelivery => ({
          deliveryId: row.id,
          webhookId: row.webhookId,
          projectId: row.projectId,
          eventId: row.eventId,
          payload: row.payload,
          attemptsMade: row.attemptsMade,
          url: row.url,
          secret: row.secret,
          previousSecret: row.previousSecret,
          previousSecretExpiresAt: row.previousSecretExpiresAt,
          traceparent: row.traceparent
        })
      )
    }).pipe(sql.withTransaction, Effect.mapError(storageError("claim deliveries")))

  /**
   * One retention batch, in one short transaction: the oldest `limit` finished deliveries that
   * finished before `before`, attempts first (no reliance on SQLite's foreign_keys pragma). On
   * PostgreSQL the rows are locked with SKIP LOCKED, so two servers pruning at once take different
   * rows instead of waiting on each other; both statements pick the same rows (the first one's
   * locks are this transaction's own, and nothing can make a delivery finish in the past).
   */
  const pruneFinished = (before: string, limit: number) =>
    Effect.gen(function* () {
      // The rows are chosen once, then deleted by id: choosing them again in the second DELETE
      // could pick other rows on PostgreSQL (each statement sees a new snapshot, and rows another
      // pruner had locked may have been released in between).
      const lock = sql.onDialectOrElse({
        pg: () => sql.literal("FOR UPDATE SKIP LOCKED"),
        orElse: () => sql.literal("")
      })
      const doomed = yield* sql`SELECT id FROM flagport_webhook_deliveries
        WHERE status IN ('succeeded', 'failed') AND updated_at < ${before}
        ORDER BY updated_at, seq LIMIT ${limit} ${lock}`.pipe(Effect.flatMap(decodeDeliveryIds))
      if (doomed.length === 0) return 0
      const ids = doomed.map((row) => row.id)
      yield* sql`DELETE FROM flagport_webhook_attempts WHERE ${sql.in("delivery_id", ids)}`
      const deleted = yield* sql`DELETE FROM flagport_webhook_deliveries WHERE ${sql.in("id", ids)} RETURNING id`.pipe(
        Effect.flatMap(decodeDeliveryIds)
      )
      return deleted.length
    }).pipe(sql.withTransaction, Effect.mapError(storageError("prune finished deliveries")))

  return WebhookRepository.of({
    insert: (w) =>
      sql`INSERT INTO flagport_webhooks (id, project_id, url, events, enabled, enabled_at, disabled_at, secret,
          previous_secret, previous_secret_expires_at, created_at, updated_at)
        VALUES (${w.id}, ${w.projectId}, ${w.url}, ${JSON.stringify(w.events)}, ${w.enabled ? 1 : 0}, ${w.enabledAt},
          ${w.disabledAt}, ${w.secret},
          ${w.previousSecret}, ${w.previousSecretExpiresAt}, ${w.createdAt}, ${w.updatedAt})`.pipe(
        Effect.asVoid,
        Effect.mapError(storageError("insert a webhook"))
      ),
    list: (projectId) =>
      sql`SELECT ${webhookColumns} FROM flagport_webhooks WHERE project_id = ${projectId} ORDER BY seq`.pipe(
        Effect.flatMap(decodeWebhooks),
        Effect.map((rows) => rows.map(toWebhook)),
        Effect.mapError(storageError("list webhooks"))
      ),
    get: (projectId, webhookId) =>
      sql`SELECT ${webhookColumns} FROM flagport_webhooks
        WHERE id = ${webhookId} AND project_id = ${projectId}`.pipe(
        Effect.flatMap(decodeWebhooks),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toWebhook)),
        Effect.mapError(storageError("read a webhook"))
      ),
    update: (w) =>
      sql`UPDATE flagport_webhooks SET url = ${w.url}, events = ${JSON.stringify(w.events)},
          enabled = ${w.enabled ? 1 : 0}, enabled_at = ${w.enabledAt}, disabled_at = ${w.disabledAt},
          secret = ${w.secret}, previous_secret = ${w.previousSecret},
          previous_secret_expires_at = ${w.previousSecretExpiresAt}, updated_at = ${w.updatedAt}
        WHERE id = ${w.id} AND project_id = ${w.projectId} RETURNING id`.pipe(
        Effect.flatMap(decodeWebhookIds),
        Effect.mapError(storageError("update a webhook")),
        Effect.flatMap((rows) =>
          rows.length === 0 ? Effect.fail(new NotFound({ entity: "webhook", key: w.id })) : Effect.void
        )
      ),
    remove,

    lockForFanOut: sql
      .onDialectOrElse({
        // Transaction-scoped: released at commit or rollback. The key is arbitrary but fixed.
        pg: () => sql`SELECT pg_advisory_xact_lock(7246031377)`.pipe(Effect.asVoid),
        orElse: () => Effect.void
      })
      .pipe(Effect.mapError(storageError("lock the outbox fan-out"))),
    subscribers: (projectId, type) =>
      sql`SELECT id, events, enabled_at AS "enabledAt",
          disabled_at AS "disabledAt"
        FROM flagport_webhooks WHERE project_id = ${projectId} AND enabled_at IS NOT NULL ORDER BY seq`.pipe(
        Effect.flatMap(decodeSubscribers),
        Effect.map((rows) =>
          rows
            .filter((row) => row.events.includes(type))
            .map(({ disabledAt, enabledAt, id }) => ({ id, enabledAt, disabledAt }))
        ),
        Effect.mapError(storageError("find subscribers"))
      ),
    insertDelivery: (d) =>
      sql`INSERT INTO flagport_webhook_deliveries (id, webhook_id, project_id, event_id, event_type, payload, status,
          attempts_made, next_attempt_at, redelivery_of, created_at, updated_at, trace_parent)
        VALUES (${d.id}, ${d.webhookId}, ${d.projectId}, ${d.eventId}, ${d.eventType}, ${d.payload}, 'pending', 0,
          ${d.nextAttemptAt}, ${d.redeliveryOf}, ${d.createdAt}, ${d.createdAt}, ${d.traceparent ?? null})`.pipe(
        Effect.asVoid,
        Effect.mapError(storageError("insert a delivery"))
      ),

    claimDue,
    dueProjects,
    lockProject: (projectId) =>
      sql
        .onDialectOrElse({
          // Transaction-scoped: released at commit or rollback. Two-int keys never meet the fan-out lock's bigint key.
          pg: () => sql`SELECT pg_advisory_xact_lock(72460313, hashtext(${projectId}))`.pipe(Effect.asVoid),
          orElse: () => Effect.void
        })
        .pipe(Effect.mapError(storageError("lock the project's webhooks"))),
    recordAttempt: ({ attempt, deliveryId, owner, status }) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO flagport_webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error,
            next_attempt_at)
          VALUES (${deliveryId}, ${attempt.attemptedAt}, ${attempt.statusCode}, ${Math.round(attempt.durationMs)},
            ${attempt.error}, ${attempt.nextAttemptAt})`
        const settled = yield* sql`UPDATE flagport_webhook_deliveries
          SET status = ${status}, attempts_made = attempts_made + 1,
            next_attempt_at = COALESCE(${attempt.nextAttemptAt}, next_attempt_at),
            lease_owner = NULL, lease_expires_at = NULL, updated_at = ${attempt.attemptedAt}
          WHERE id = ${deliveryId} AND lease_owner = ${owner} AND status = 'pending' RETURNING id`.pipe(
          Effect.flatMap(decodeDeliveryIds)
        )
        return settled.length > 0
      }).pipe(sql.withTransaction, Effect.mapError(storageError("record an attempt"))),

    pruneFinished,

    listDeliveries: (webhookId) =>
      sql`SELECT ${deliveryColumns} FROM flagport_webhook_deliveries
        WHERE webhook_id = ${webhookId} ORDER BY seq`.pipe(
        Effect.flatMap(decodeDeliveries),
        Effect.flatMap(withAttempts),
        Effect.mapError(storageError("list deliveries"))
      ),
    getDelivery: (webhookId, deliveryId) =>
      sql`SELECT ${deliveryColumns} FROM flagport_webhook_deliveries
        WHERE id = ${deliveryId} AND webhook_id = ${webhookId}`.pipe(
        Effect.flatMap(decodeDeliveries),
        Effect.flatMap(withAttempts),
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.mapError(storageError("read a delivery"))
      )
  })
})

/** The SQL WebhookRepository; needs the SqlClient of the storage layer (migrations applied). */
export const layer: Layer.Layer<WebhookRepository, never, SqlClient.SqlClient> = Layer.effect(WebhookRepository, make)
