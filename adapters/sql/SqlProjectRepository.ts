import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Project } from "../../src/domain/definitions/Project.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

const ProjectRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String
})

const decodeProjects = decodeRows(ProjectRow, "flagport_projects")
const decodeRevisions = decodeRows(Schema.Struct({ revision: SqlInteger }), "flagport_projects")

const toProject = (row: typeof ProjectRow.Type): Project => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return ProjectRepository.of({
    insert: (project) =>
      orDuplicate("project", project.id)(
        sql`INSERT INTO flagport_projects ${sql.insert({
          id: project.id,
          name: project.name,
          revision: 1,
          created_at: project.createdAt,
          updated_at: project.updatedAt
        })}`
      ).pipe(Effect.asVoid),
    list: () =>
      orFail(sql`SELECT id, name, created_at, updated_at FROM flagport_projects ORDER BY seq`).pipe(
        Effect.flatMap(decodeProjects),
        Effect.map((rows) => rows.map(toProject))
      ),
    get: (id) =>
      orFail(sql`SELECT id, name, created_at, updated_at FROM flagport_projects WHERE id = ${id}`).pipe(
        Effect.flatMap(decodeProjects),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toProject))
      ),
    // An atomic increment: on PostgreSQL it takes the row lock that serializes writes per project.
    bumpRevision: (id) =>
      orFail(
        sql`UPDATE flagport_projects SET revision = revision + 1 WHERE id = ${id} RETURNING revision`
      ).pipe(
        Effect.flatMap(decodeRevisions),
        Effect.flatMap((rows) =>
          rows[0] === undefined ? Effect.fail(new NotFound({ entity: "project", key: id })) : Effect.succeed(rows[0].revision)
        )
      ),
    revision: (id) =>
      orFail(sql`SELECT revision FROM flagport_projects WHERE id = ${id}`).pipe(
        Effect.flatMap(decodeRevisions),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.revision))
      )
  })
})

export const layer = Layer.effect(ProjectRepository, make)
