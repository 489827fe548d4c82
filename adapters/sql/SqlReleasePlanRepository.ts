import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ReleasePlan } from "../../src/domain/releaseplans/ReleasePlan.js"
import { ReleasePlanRepository } from "../../src/ports/ReleasePlanRepository.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { decodeRows, IdRow } from "./SqlRows.js"

/**
 * ReleasePlanRepository over @effect/sql (PostgreSQL and SQLite; table in
 * migrations/0031_release_plans.ts).
 *
 * Claims are one conditional UPDATE, as for schedules: on PostgreSQL its candidate rows are picked
 * with FOR UPDATE SKIP LOCKED and the UPDATE re-checks the lease on the latest row version, so two
 * processes never lease one plan; SQLite runs the statement atomically. `replace` is conditional
 * on the version (and the lease), so of two writers that read one version only the first commits.
 */

const Row = Schema.Struct({ body: Schema.parseJson(ReleasePlan) })
const ClaimedRow = Schema.Struct({ projectId: Schema.String, body: Schema.parseJson(ReleasePlan) })

const decodePlans = decodeRows(Row, "flagport_release_plans")
const decodeClaimed = decodeRows(ClaimedRow, "flagport_release_plans")
const decodeIds = decodeRows(IdRow, "flagport_release_plans")

/** A failure of the statements (SqlError) becomes a StorageError saying what failed; a malformed row stays what it is. */
const storageError = (what: string) => (cause: SqlError | StorageError) =>
  cause._tag === "StorageError" ? cause : new StorageError({ message: `Release plan storage failed to ${what}`, cause })

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const bodies = (rows: ReadonlyArray<typeof Row.Type>) => rows.map((row) => row.body)

  const claimDue = ({ leaseUntil, limit, now, owner }: Parameters<ReleasePlanRepository["Type"]["claimDue"]>[0]) =>
    Effect.gen(function* () {
      const lock = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })
      const leased = yield* sql`UPDATE flagport_release_plans
        SET lease_owner = ${owner}, lease_expires_at = ${leaseUntil}
        WHERE id IN (
          SELECT id FROM flagport_release_plans
          WHERE due_at IS NOT NULL AND due_at <= ${now} AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})
          ORDER BY due_at, seq LIMIT ${limit} ${lock}
        )
        AND due_at IS NOT NULL AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})
        RETURNING id`.pipe(Effect.flatMap(decodeIds))
      if (leased.length === 0) return []
      const rows = yield* sql`SELECT project_id AS "projectId", body FROM flagport_release_plans
        WHERE ${sql.in("id", leased.map((r) => r.id))} AND lease_owner = ${owner} ORDER BY due_at, seq`.pipe(Effect.flatMap(decodeClaimed))
      return rows.map((row) => ({ projectId: row.projectId, plan: row.body }))
    }).pipe(sql.withTransaction, Effect.mapError(storageError("claim due release plans")))

  return ReleasePlanRepository.of({
    insert: (projectId, plan, dueAt) =>
      sql`INSERT INTO flagport_release_plans ${sql.insert({
        id: plan.id,
        project_id: projectId,
        flag_key: plan.flagKey,
        environment: plan.environment,
        status: plan.status,
        version: plan.version,
        body: JSON.stringify(plan),
        due_at: dueAt
      })}`.pipe(Effect.asVoid, Effect.mapError(storageError("insert a release plan"))),
    list: (projectId, flagKey) =>
      sql`SELECT body FROM flagport_release_plans WHERE project_id = ${projectId} AND flag_key = ${flagKey} ORDER BY seq`.pipe(
        Effect.flatMap(decodePlans),
        Effect.map(bodies),
        Effect.mapError(storageError("list release plans"))
      ),
    get: (projectId, flagKey, id) =>
      sql`SELECT body FROM flagport_release_plans WHERE project_id = ${projectId} AND flag_key = ${flagKey} AND id = ${id}`.pipe(
        Effect.flatMap(decodePlans),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.body)),
        Effect.mapError(storageError("read a release plan"))
      ),
    listIn: (projectId, statuses, where) =>
      statuses.length === 0
        ? Effect.succeed([])
        : sql`SELECT body FROM flagport_release_plans WHERE project_id = ${projectId} AND ${sql.in("status", statuses)}
            ${where?.environment === undefined ? sql.literal("") : sql`AND environment = ${where.environment}`}
            ${where?.flagKey === undefined ? sql.literal("") : sql`AND flag_key = ${where.flagKey}`}
            ORDER BY seq`.pipe(Effect.flatMap(decodePlans), Effect.map(bodies), Effect.mapError(storageError("list release plans"))),
    replace: (projectId, plan, { dueAt, expectedVersion, owner }) =>
      sql`UPDATE flagport_release_plans
        SET status = ${plan.status}, version = ${plan.version}, body = ${JSON.stringify(plan)}, due_at = ${dueAt},
          lease_owner = NULL, lease_expires_at = NULL
        WHERE project_id = ${projectId} AND flag_key = ${plan.flagKey} AND id = ${plan.id} AND version = ${expectedVersion}
          ${owner === undefined ? sql.literal("") : sql`AND lease_owner = ${owner}`}
        RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(storageError("replace a release plan"))
      ),
    remove: (projectId, flagKey, id) =>
      sql`DELETE FROM flagport_release_plans WHERE project_id = ${projectId} AND flag_key = ${flagKey} AND id = ${id} RETURNING id`.pipe(
        Effect.flatMap(decodeIds),
        Effect.map((rows) => rows.length > 0),
        Effect.mapError(storageError("delete a release plan"))
      ),
    claimDue
  })
})

/** The SQL ReleasePlanRepository; needs the SqlClient of the storage layer (migrations applied). */
export const layer: Layer.Layer<ReleasePlanRepository, never, SqlClient.SqlClient> = Layer.effect(ReleasePlanRepository, make)
