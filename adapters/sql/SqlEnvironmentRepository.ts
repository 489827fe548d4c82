import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ClientConfig, type Environment, RequiredApprovals } from "../../src/domain/definitions/Project.js"
import { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { decodeRows, SqlBoolean, SqlInteger } from "./SqlRows.js"
import { boolParam, orDuplicate, orFail } from "./SqlSupport.js"

const EnvironmentRow = Schema.Struct({
  id: Schema.String,
  project_id: Schema.String,
  key: Schema.String,
  name: Schema.String,
  client_config: ClientConfig,
  protected: SqlBoolean,
  required_approvals: SqlInteger.pipe(Schema.compose(RequiredApprovals)),
  created_at: Schema.String
})

const decodeEnvironments = decodeRows(EnvironmentRow, "flagport_environments")
const decodeIds = decodeRows(Schema.Struct({ id: Schema.String }), "flagport_environments")

const toEnvironment = (row: typeof EnvironmentRow.Type): Environment => ({
  id: row.id,
  projectId: row.project_id,
  key: row.key,
  name: row.name,
  clientConfig: row.client_config,
  protected: row.protected,
  requiredApprovals: row.required_approvals,
  createdAt: row.created_at
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const dialect = sql.onDialectOrElse({ sqlite: () => "sqlite", pg: () => "pg", orElse: () => "other" })
  const columns = sql.literal("id, project_id, key, name, client_config, protected, required_approvals, created_at")
  return EnvironmentRepository.of({
    insert: (env) =>
      orDuplicate("environment", env.key)(
        sql`INSERT INTO flagport_environments ${sql.insert({
          id: env.id,
          project_id: env.projectId,
          key: env.key,
          name: env.name,
          client_config: env.clientConfig,
          protected: boolParam(dialect, env.protected),
          required_approvals: env.requiredApprovals,
          created_at: env.createdAt
        })}`
      ).pipe(Effect.asVoid),
    list: (projectId) =>
      orFail(
        sql`SELECT ${columns} FROM flagport_environments
          WHERE project_id = ${projectId} ORDER BY seq`
      ).pipe(Effect.flatMap(decodeEnvironments), Effect.map((rows) => rows.map(toEnvironment))),
    update: (env) =>
      orFail(
        sql`UPDATE flagport_environments SET name = ${env.name}, client_config = ${env.clientConfig},
          protected = ${boolParam(dialect, env.protected)}, required_approvals = ${env.requiredApprovals}
          WHERE project_id = ${env.projectId} AND key = ${env.key}
          RETURNING id`
      ).pipe(
        Effect.flatMap(decodeIds),
        Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new NotFound({ entity: "environment", key: env.key })) : Effect.void))
      ),
    get: (projectId, key) =>
      orFail(
        sql`SELECT ${columns} FROM flagport_environments
          WHERE project_id = ${projectId} AND key = ${key}`
      ).pipe(Effect.flatMap(decodeEnvironments), Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEnvironment)))
  })
})

export const layer = Layer.effect(EnvironmentRepository, make)
