import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Environment } from "../../src/domain/definitions/Project.js"
import { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import { decodeRows } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

const EnvironmentRow = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  key: Schema.String,
  name: Schema.String,
  created_at: Schema.String
})

const decodeEnvironments = decodeRows(EnvironmentRow, "flagport_environments")

const toEnvironment = (row: typeof EnvironmentRow.Type): Environment => ({
  id: row.id,
  projectId: row.project_id,
  key: row.key,
  name: row.name,
  createdAt: row.created_at
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return EnvironmentRepository.of({
    insert: (env) =>
      orDuplicate("environment", env.key)(
        sql`INSERT INTO flagport_environments ${sql.insert({
          id: env.id,
          project_id: env.projectId,
          key: env.key,
          name: env.name,
          created_at: env.createdAt
        })}`
      ).pipe(Effect.asVoid),
    list: (projectId) =>
      orFail(
        sql`SELECT id, project_id, key, name, created_at FROM flagport_environments
          WHERE project_id = ${projectId} ORDER BY seq`
      ).pipe(Effect.flatMap(decodeEnvironments), Effect.map((rows) => rows.map(toEnvironment))),
    get: (projectId, key) =>
      orFail(
        sql`SELECT id, project_id, key, name, created_at FROM flagport_environments
          WHERE project_id = ${projectId} AND key = ${key}`
      ).pipe(Effect.flatMap(decodeEnvironments), Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEnvironment)))
  })
})

export const layer = Layer.effect(EnvironmentRepository, make)
