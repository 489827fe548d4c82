import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { Actor } from "../../src/domain/audit/Actor.js"
import { type AuditEntry, AuditResourceType } from "../../src/domain/audit/AuditEntry.js"
import { AuditLog, type PositionedEntry } from "../../src/ports/AuditLog.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/**
 * flagport_audit_log: the actor and the states as JSON text. A row's position is `commit_seq`,
 * numbered in the order the writes commit (migrations/0019_audit_commit_order.ts); a row of a
 * transaction still open has none (only that transaction sees it), so reads leave it out.
 */

/** A state is stored as JSON text; SQL NULL and JSON null both read back as null. */
const State = Schema.NullOr(Schema.parseJson())

const AuditRow = Schema.Struct({
  commit_seq: SqlInteger,
  id: Schema.String,
  project_id: Schema.String,
  occurred_at: Schema.String,
  actor: Schema.parseJson(Actor),
  action: Schema.String,
  resource_type: AuditResourceType,
  resource_key: Schema.String,
  environment: Schema.NullOr(Schema.String),
  change_request_id: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  before_state: State,
  after_state: State
})

const decodeEntries = decodeRows(AuditRow, "flagport_audit_log")
const decodeSeqs = decodeRows(Schema.Struct({ seq: SqlInteger }), "flagport_audit_log")

const toEntry = (row: typeof AuditRow.Type): PositionedEntry => {
  const entry: AuditEntry = {
    id: row.id,
    projectId: row.project_id,
    at: row.occurred_at,
    actor: row.actor,
    action: row.action,
    resource: { type: row.resource_type, key: row.resource_key },
    ...(row.environment === null ? {} : { environment: row.environment }),
    ...(row.change_request_id === null ? {} : { changeRequestId: row.change_request_id }),
    ...(row.reason === null ? {} : { reason: row.reason }),
    before: row.before_state ?? null,
    after: row.after_state ?? null
  }
  return { position: row.commit_seq, entry }
}

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return AuditLog.of({
    append: (entry) =>
      orFail(
        sql`INSERT INTO flagport_audit_log ${sql.insert({
          id: entry.id,
          project_id: entry.projectId,
          occurred_at: entry.at,
          actor: JSON.stringify(entry.actor),
          action: entry.action,
          resource_type: entry.resource.type,
          resource_key: entry.resource.key,
          environment: entry.environment ?? null,
          change_request_id: entry.changeRequestId ?? null,
          reason: entry.reason ?? null,
          before_state: entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before),
          after_state: entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after)
        })}`
      ).pipe(Effect.asVoid),
    list: (projectId, filter, limit, before) => {
      const conditions = [
        sql`project_id = ${projectId}`,
        sql`commit_seq IS NOT NULL`,
        ...(filter.resourceType === undefined ? [] : [sql`resource_type = ${filter.resourceType}`]),
        ...(filter.resourceKey === undefined ? [] : [sql`resource_key = ${filter.resourceKey}`]),
        ...(filter.environment === undefined ? [] : [sql`environment = ${filter.environment}`]),
        ...(before === undefined ? [] : [sql`commit_seq < ${before}`])
      ]
      return orFail(
        sql`SELECT commit_seq, id, project_id, occurred_at, actor, action, resource_type, resource_key, environment,
          change_request_id, reason, before_state, after_state FROM flagport_audit_log WHERE ${sql.and(conditions)} ORDER BY commit_seq DESC LIMIT ${limit}`
      ).pipe(Effect.flatMap(decodeEntries), Effect.map((rows) => rows.map(toEntry)))
    },
    after: (projectId, after, limit) =>
      orFail(
        sql`SELECT commit_seq, id, project_id, occurred_at, actor, action, resource_type, resource_key, environment,
          change_request_id, reason, before_state, after_state FROM flagport_audit_log
          WHERE project_id = ${projectId} AND commit_seq > ${after} ORDER BY commit_seq LIMIT ${limit}`
      ).pipe(Effect.flatMap(decodeEntries), Effect.map((rows) => rows.map(toEntry))),
    // One short statement per batch, as the outbox's retention: the subquery picks the oldest
    // `limit` rows; on PostgreSQL rows another pruner holds are skipped.
    prune: (before, limit) =>
      orFail(
        sql`DELETE FROM flagport_audit_log WHERE seq IN (
          SELECT seq FROM flagport_audit_log WHERE occurred_at < ${before}
          ORDER BY occurred_at, seq LIMIT ${Math.max(1, limit)} ${sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })}) RETURNING seq`
      ).pipe(Effect.flatMap(decodeSeqs), Effect.map((rows) => rows.length))
  })
})

export const layer = Layer.effect(AuditLog, make)
