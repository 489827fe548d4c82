import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { Segment } from "../../src/domain/definitions/Segment.js"
import type { Condition } from "../../src/domain/definitions/Targeting.js"
import { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { decodeRows, orDuplicate, orFail } from "./SqlSupport.js"

interface SegmentRow {
  readonly id: string
  readonly project_id: string
  readonly key: string
  readonly name: string
  readonly description: string | null
  readonly conditions: string
  readonly created_at: string
  readonly updated_at: string
}

const toSegment = (row: SegmentRow): Segment => ({
  id: row.id,
  projectId: row.project_id,
  key: row.key,
  name: row.name,
  description: row.description,
  conditions: JSON.parse(row.conditions) as Array<Condition>,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal("id, project_id, key, name, description, conditions, created_at, updated_at")
  return SegmentRepository.of({
    insert: (segment) =>
      orDuplicate("segment", segment.key)(
        sql`INSERT INTO flagport_segments ${sql.insert({
          id: segment.id,
          project_id: segment.projectId,
          key: segment.key,
          name: segment.name,
          description: segment.description,
          conditions: JSON.stringify(segment.conditions),
          created_at: segment.createdAt,
          updated_at: segment.updatedAt
        })}`
      ).pipe(Effect.asVoid),
    list: (projectId) =>
      orFail(sql<SegmentRow>`SELECT ${columns} FROM flagport_segments WHERE project_id = ${projectId} ORDER BY seq`).pipe(
        Effect.flatMap((rows) => decodeRows(rows, toSegment))
      ),
    get: (projectId, key) =>
      orFail(sql<SegmentRow>`SELECT ${columns} FROM flagport_segments WHERE project_id = ${projectId} AND key = ${key}`).pipe(
        Effect.flatMap((rows) => decodeRows(rows, toSegment)),
        Effect.map((segments) => Option.fromNullable(segments[0]))
      ),
    update: (segment) =>
      orFail(
        sql<{ readonly id: string }>`UPDATE flagport_segments SET
          name = ${segment.name},
          description = ${segment.description},
          conditions = ${JSON.stringify(segment.conditions)},
          updated_at = ${segment.updatedAt}
          WHERE project_id = ${segment.projectId} AND key = ${segment.key}
          RETURNING id`
      ).pipe(
        Effect.flatMap((rows) =>
          rows.length === 0 ? Effect.fail(new NotFound({ entity: "segment", key: segment.key })) : Effect.void
        )
      ),
    remove: (projectId, key) =>
      orFail(
        sql<{ readonly id: string }>`DELETE FROM flagport_segments WHERE project_id = ${projectId} AND key = ${key} RETURNING id`
      ).pipe(Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new NotFound({ entity: "segment", key })) : Effect.void)))
  })
})

export const layer = Layer.effect(SegmentRepository, make)
