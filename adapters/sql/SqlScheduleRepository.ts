import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Actor } from "../../src/domain/audit/Actor.js"
import { ScheduledTargeting, ScheduleStatus } from "../../src/domain/schedules/Schedule.js"
import { ScheduleRepository } from "../../src/ports/ScheduleRepository.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { decodeRows, IdRow } from "./SqlRows.js"

/**
 * ScheduleRepository over @effect/sql (PostgreSQL and SQLite; table in migrations/0007_schedules.ts).
 *
 * Claims are one conditional UPDATE, as for webhook deliveries: on PostgreSQL its candidate rows
 * are picked with FOR UPDATE SKIP LOCKED, and the UPDATE re-checks "still pending, lease expired"
 * on the latest row version, so two processes never lease one schedule; SQLite runs the statement
 * atomically. `settle` is conditional on the lease too, and runs in the transaction of the change.
 */

const Row = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  flagKey: Schema.String,
  flagId: Schema.String,
  environment: Schema.String,
  at: Schema.String,
  targeting: Schema.parseJson(ScheduledTargeting.pipe(Schema.omit("environment"))),
  status: ScheduleStatus,
  reason: Schema.NullOr(Schema.String),
  actor: Schema.parseJson(Actor),
  createdAt: Schema.String,
  settledAt: Schema.NullOr(Schema.String)
})

const decodeSchedules = decodeRows(Row, "flagport_schedules")
const decodeIds = decodeRows(IdRow, "flagport_schedules")

/** A failure of the statements (SqlError) becomes a StorageError saying what failed; a malformed row stays what it is. */
const storageError = (what: string) => (cause: SqlError | StorageError) =>
  cause._tag === "StorageError" ? cause : new StorageError({ message: `Schedule storage failed to ${what}`, cause })

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const columns = sql.literal(`id, project_id AS "projectId", flag_key AS "flagKey", flag_id AS "flagId", environment, due_at AS "at", targeting,
    status, reason, actor, created_at AS "createdAt", settled_at AS "settledAt"`)

  const claimDue = ({ leaseUntil, limit, now, owner }: Parameters<ScheduleRepository["Type"]["claimDue"]>[0]) =>
    Effect.gen(function* () {
      const lock = sql.onDialectOrElse({
        pg: () => sql.literal("FOR UPDATE SKIP LOCKED"),
        orElse: () => sql.literal("")
      })
      const leased = yield* sql`UPDATE flagport_schedules
        SET lease_owner = ${owner}, lease_expires_at = ${leaseUntil}
        WHERE id IN (
          SELECT id FROM flagport_schedules
          WHERE status = 'pending' AND due_at <= ${now} AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})
          ORDER BY due_at, seq LIMIT ${limit} ${lock}
        )
        AND status = 'pending' AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})
        RETURNING id`.pipe(Effect.flatMap(decodeIds))
      if (leased.length === 0) return []
      return yield* sql`SELECT ${columns} FROM flagport_schedules
        WHERE ${sql.in("id", leased.map((r) => r.id))} AND lease_owner = ${owner} ORDER BY due_at, seq`.pipe(Effect.flatMap(decodeSchedules))
    }).pipe(sql.withTransaction, Effect.mapError(storageError("claim due schedules")))

  return ScheduleRepository.of({
    insert: (s) =>
      sql`INSERT INTO flagport_schedules (id, project_id, flag_key, flag_id, environment, due_at, targeting, status, reason, actor,
          created_at, settled_at)
        VALUES (${s.id}, ${s.projectId}, ${s.flagKey}, ${s.flagId}, ${s.environment}, ${s.at}, ${JSON.stringify(s.targeting)},
          ${s.status}, ${s.reason}, ${JSON.stringify(s.actor)}, ${s.createdAt}, ${s.settledAt})`.pipe(
        Effect.asVoid,
        Effect.mapError(storageError("insert a schedule"))
      ),
    list: (projectId, flagKey) =>
      sql`SELECT ${columns} FROM flagport_schedules
        WHERE project_id = ${projectId} AND flag_key = ${flagKey} ORDER BY seq`.pipe(
        Effect.flatMap(decodeSchedules),
        Effect.mapError(storageError("list schedules"))
      ),
    listPending: (projectId, environment) =>
      sql`SELECT ${columns} FROM flagport_schedules
        WHERE status = 'pending'
          ${projectId === null ? sql.literal("") : sql`AND project_id = ${projectId}`}
          ${environment === undefined ? sql.literal("") : sql`AND environment = ${environment}`}
        ORDER BY due_at, seq`.pipe(
        Effect.flatMap(decodeSchedules),
        Effect.mapError(storageError("list pending schedules"))
      ),
    get: (projectId, flagKey, id) =>
      sql`SELECT ${columns} FROM flagport_schedules
        WHERE id = ${id} AND project_id = ${projectId} AND flag_key = ${flagKey}`.pipe(
        Effect.flatMap(decodeSchedules),
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.mapError(storageError("read a schedule"))
      ),
    cancel: (id, settledAt) =>
      sql`UPDATE flagport_schedules
        SET status = 'cancelled', settled_at = ${settledAt}, lease_owner = NULL, lease_expires_at = NULL
        WHERE id = ${id} AND status = 'pending' RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(storageError("cancel a schedule"))
      ),
    claimDue,
    settle: ({ id, owner, reason, settledAt, status }) =>
      sql`UPDATE flagport_schedules
        SET status = ${status}, reason = ${reason}, settled_at = ${settledAt}, lease_owner = NULL, lease_expires_at = NULL
        WHERE id = ${id} AND lease_owner = ${owner} AND status = 'pending' RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(storageError("settle a schedule"))
      )
  })
})

/** The SQL ScheduleRepository; needs the SqlClient of the storage layer (migrations applied). */
export const layer: Layer.Layer<ScheduleRepository, never, SqlClient.SqlClient> = Layer.effect(ScheduleRepository, make)
