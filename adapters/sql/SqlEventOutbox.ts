import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { WebhookEvent } from "../../src/domain/webhooks/Webhook.js"
import { EventOutbox, type OutboxEntry } from "../../src/ports/EventOutbox.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/** flagport_outbox: the event as JSON text in `payload`, `seq` giving append order. */
const OutboxRow = Schema.Struct({
  seq: SqlInteger,
  payload: Schema.parseJson(WebhookEvent),
  dispatched_at: Schema.NullOr(Schema.String),
  trace_parent: Schema.NullOr(Schema.String)
})

const decodeEntries = decodeRows(OutboxRow, "flagport_outbox")
const decodeSeqs = decodeRows(Schema.Struct({ seq: SqlInteger }), "flagport_outbox")

const toEntry = (row: typeof OutboxRow.Type): OutboxEntry => ({
  seq: row.seq,
  event: row.payload,
  dispatchedAt: row.dispatched_at,
  traceparent: row.trace_parent
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return EventOutbox.of({
    append: (event, traceparent) =>
      orFail(
        sql`INSERT INTO flagport_outbox ${sql.insert({
          id: event.id,
          project_id: event.projectId,
          type: event.type,
          payload: JSON.stringify(event),
          occurred_at: event.occurredAt,
          dispatched_at: null,
          trace_parent: traceparent ?? null
        })}`
      ).pipe(Effect.asVoid),
    pending: (limit) =>
      orFail(
        sql`SELECT seq, payload, dispatched_at, trace_parent FROM flagport_outbox
          WHERE dispatched_at IS NULL ORDER BY seq LIMIT ${limit}`
      ).pipe(Effect.flatMap(decodeEntries), Effect.map((rows) => rows.map(toEntry))),
    list: (projectId) =>
      orFail(
        sql`SELECT seq, payload, dispatched_at, trace_parent FROM flagport_outbox WHERE project_id = ${projectId} ORDER BY seq`
      ).pipe(Effect.flatMap(decodeEntries), Effect.map((rows) => rows.map(toEntry))),
    markDispatched: (eventId, at) =>
      orFail(
        sql`UPDATE flagport_outbox SET dispatched_at = ${at} WHERE id = ${eventId} AND dispatched_at IS NULL`
      ).pipe(Effect.asVoid),
    // One short statement per batch (the same text on PostgreSQL and SQLite): the subquery picks
    // the oldest `limit` dispatched rows, so no statement holds locks on more than that.
    pruneDispatched: (before, limit) =>
      orFail(
        // One statement, so the rows are chosen once; on PostgreSQL rows another pruner holds are skipped.
        sql`DELETE FROM flagport_outbox WHERE seq IN (
          SELECT seq FROM flagport_outbox WHERE dispatched_at IS NOT NULL AND dispatched_at < ${before}
          ORDER BY dispatched_at, seq LIMIT ${limit} ${sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })}) RETURNING seq`
      ).pipe(Effect.flatMap(decodeSeqs), Effect.map((rows) => rows.length))
  })
})

export const layer = Layer.effect(EventOutbox, make)
