import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Segment } from "../../src/domain/definitions/Segment.js"
import { ConditionOrGroup } from "../../src/domain/definitions/Condition.js"
import { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { decodeRows, IdRow } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

/** flagport_segments: the conditions as JSON text; `key_attribute` since migration 0033 (`key` for older segments). */
const SegmentRow = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  key: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  conditions: Schema.parseJson(Schema.Array(ConditionOrGroup)),
  key_attribute: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String
})

const decodeSegments = decodeRows(SegmentRow, "flagport_segments")
const decodeIds = decodeRows(IdRow, "flagport_segments")

const toSegment = (row: typeof SegmentRow.Type): Segment => ({
  id: row.id,
  projectId: row.project_id,
  key: row.key,
  name: row.name,
  description: row.description,
  conditions: row.conditions,
  keyAttribute: row.key_attribute,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal("id, project_id, key, name, description, conditions, key_attribute, created_at, updated_at")
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
          key_attribute: segment.keyAttribute,
          created_at: segment.createdAt,
          updated_at: segment.updatedAt
        })}`
      ).pipe(Effect.asVoid),
    list: (projectId) =>
      orFail(sql`SELECT ${columns} FROM flagport_segments WHERE project_id = ${projectId} ORDER BY seq`).pipe(
        Effect.flatMap(decodeSegments),
        Effect.map((rows) => rows.map(toSegment))
      ),
    get: (projectId, key) =>
      orFail(sql`SELECT ${columns} FROM flagport_segments WHERE project_id = ${projectId} AND key = ${key}`).pipe(
        Effect.flatMap(decodeSegments),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSegment))
      ),
    update: (segment) =>
      orFail(
        sql`UPDATE flagport_segments SET
          name = ${segment.name},
          description = ${segment.description},
          conditions = ${JSON.stringify(segment.conditions)},
          key_attribute = ${segment.keyAttribute},
          updated_at = ${segment.updatedAt}
          WHERE project_id = ${segment.projectId} AND key = ${segment.key}
          RETURNING id`
      ).pipe(
        Effect.flatMap(decodeIds),
        Effect.flatMap((rows) =>
          rows.length === 0 ? Effect.fail(new NotFound({ entity: "segment", key: segment.key })) : Effect.void
        )
      ),
    remove: (projectId, key) =>
      orFail(
        sql`DELETE FROM flagport_segments WHERE project_id = ${projectId} AND key = ${key} RETURNING id`
      ).pipe(Effect.flatMap(decodeIds), Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new NotFound({ entity: "segment", key })) : Effect.void)))
  })
})

export const layer = Layer.effect(SegmentRepository, make)
