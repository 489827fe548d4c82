import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ChangeRequestRecord, PinnedSegment, type StoredChangeRequest } from "../../src/domain/changes/ChangeRequest.js"
import { PlanChange } from "../../src/domain/changes/PlanChange.js"
import { ChangeRequestRepository } from "../../src/ports/ChangeRequestRepository.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { decodeRows, IdRow, SqlInteger } from "./SqlRows.js"
import { orDuplicate } from "./SqlSupport.js"

/**
 * ChangeRequestRepository over @effect/sql (PostgreSQL and SQLite; table in
 * migrations/0017_change_requests.ts). `replace` is one conditional UPDATE on `version`, so of two
 * processes applying (or approving) the same request at once exactly one writes; `claimDue` leases
 * as the schedules' claim does (FOR UPDATE SKIP LOCKED on PostgreSQL).
 */

/**
 * The body as stored: a request kept before segments were pinned has none (it pinned nothing, and
 * reads back with an empty list); one kept before requests carried release plans has none either.
 */
const StoredBody = Schema.Struct({
  ...ChangeRequestRecord.fields,
  segments: Schema.optionalWith(Schema.Array(PinnedSegment), { default: () => [] }),
  releasePlans: Schema.optionalWith(Schema.Array(PlanChange), { default: () => [] })
})

const Row = Schema.Struct({
  version: SqlInteger,
  body: Schema.parseJson(StoredBody)
})

const decode = decodeRows(Row, "flagport_change_requests")
const decodeIds = decodeRows(IdRow, "flagport_change_requests")

const toStored = (row: typeof Row.Type): StoredChangeRequest => ({ ...row.body, version: row.version })

const storageError = (what: string) => (cause: SqlError | StorageError) =>
  cause._tag === "StorageError" ? cause : new StorageError({ message: `Change request storage failed to ${what}`, cause })

/** The body column: the request as the API shows it (the version has its own column). */
const bodyOf = ({ version: _version, ...request }: StoredChangeRequest) => JSON.stringify(request)

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  return ChangeRequestRepository.of({
    insert: (request) =>
      orDuplicate("change request", request.id)(
        sql`INSERT INTO flagport_change_requests ${sql.insert({
          id: request.id,
          project_id: request.projectId,
          status: request.status,
          version: request.version,
          apply_at: request.applyAt,
          failed: request.failure === null ? 0 : 1,
          body: bodyOf(request)
        })}`
      ).pipe(Effect.asVoid),
    get: (projectId, id) =>
      sql`SELECT version, body FROM flagport_change_requests WHERE project_id = ${projectId} AND id = ${id}`.pipe(
        Effect.flatMap(decode),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toStored)),
        Effect.mapError(storageError("read a change request"))
      ),
    list: (projectId, status) =>
      sql`SELECT version, body FROM flagport_change_requests
        WHERE project_id = ${projectId} ${status === undefined ? sql.literal("") : sql`AND status = ${status}`}
        ORDER BY seq DESC`.pipe(
        Effect.flatMap(decode),
        Effect.map((rows) => rows.map(toStored)),
        Effect.mapError(storageError("list change requests"))
      ),
    replace: (request, expectedVersion) =>
      sql`UPDATE flagport_change_requests
        SET status = ${request.status}, version = ${request.version}, apply_at = ${request.applyAt},
          failed = ${request.failure === null ? 0 : 1}, body = ${bodyOf(request)}, lease_owner = NULL, lease_until = NULL
        WHERE project_id = ${request.projectId} AND id = ${request.id} AND version = ${expectedVersion}
        RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length === 1),
        Effect.mapError(storageError("update a change request"))
      ),
    claimDue: ({ leaseUntil, limit, now, owner }) =>
      Effect.gen(function* () {
        const lock = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })
        const due = sql`status = 'approved' AND apply_at IS NOT NULL AND apply_at <= ${now} AND failed = 0
          AND (lease_until IS NULL OR lease_until <= ${now})`
        const leased = yield* sql`UPDATE flagport_change_requests SET lease_owner = ${owner}, lease_until = ${leaseUntil}
          WHERE id IN (SELECT id FROM flagport_change_requests WHERE ${due} ORDER BY apply_at, seq LIMIT ${limit} ${lock})
          AND ${due}
          RETURNING id`.pipe(Effect.flatMap(decodeIds))
        if (leased.length === 0) return []
        const rows = yield* sql`SELECT version, body FROM flagport_change_requests
          WHERE ${sql.in("id", leased.map((r) => r.id))} AND lease_owner = ${owner} ORDER BY apply_at, seq`.pipe(Effect.flatMap(decode))
        return rows.map(toStored)
      }).pipe(sql.withTransaction, Effect.mapError(storageError("claim due change requests")))
  })
})

export const layer = Layer.effect(ChangeRequestRepository, make)
