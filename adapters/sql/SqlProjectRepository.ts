import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { Project } from "../../src/domain/definitions/Project.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

interface ProjectRow {
  readonly id: string
  readonly name: string
  readonly created_at: string
  readonly updated_at: string
}

const toProject = (row: ProjectRow): Project => ({
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
      orFail(sql<ProjectRow>`SELECT id, name, created_at, updated_at FROM flagport_projects ORDER BY seq`).pipe(
        Effect.map((rows) => rows.map(toProject))
      ),
    get: (id) =>
      orFail(sql<ProjectRow>`SELECT id, name, created_at, updated_at FROM flagport_projects WHERE id = ${id}`).pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toProject))
      ),
    // An atomic increment: on PostgreSQL it takes the row lock that serializes writes per project.
    bumpRevision: (id) =>
      orFail(
        sql<{ readonly revision: number }>`UPDATE flagport_projects SET revision = revision + 1 WHERE id = ${id} RETURNING revision`
      ).pipe(
        Effect.flatMap((rows) =>
          rows[0] === undefined ? Effect.fail(new NotFound({ entity: "project", key: id })) : Effect.succeed(Number(rows[0].revision))
        )
      ),
    revision: (id) =>
      orFail(sql<{ readonly revision: number }>`SELECT revision FROM flagport_projects WHERE id = ${id}`).pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => Number(row.revision)))
      )
  })
})

export const layer = Layer.effect(ProjectRepository, make)
