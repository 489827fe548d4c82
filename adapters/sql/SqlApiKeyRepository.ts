import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { type ApiKey, ApiKeyType } from "../../src/domain/auth/ApiKey.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { decodeRows, IdRow } from "./SqlRows.js"
import { orDuplicate, orFail } from "./SqlSupport.js"

/** Keys by SHA-256 hash (`key_hash`, unique): the secret itself is never a parameter here. */

const ApiKeyRow = Schema.Struct({
  id: Schema.String,
  type: ApiKeyType,
  project_id: Schema.NullOr(Schema.String),
  environment: Schema.NullOr(Schema.String),
  name: Schema.String,
  prefix: Schema.String,
  created_at: Schema.String,
  created_by: Schema.NullOr(Schema.String),
  last_used_at: Schema.NullOr(Schema.String),
  revoked_at: Schema.NullOr(Schema.String)
})

const decodeKeys = decodeRows(ApiKeyRow, "flagport_api_keys")
const decodeIds = decodeRows(IdRow, "flagport_api_keys")

const toApiKey = (row: typeof ApiKeyRow.Type): ApiKey => ({
  id: row.id,
  type: row.type,
  projectId: row.project_id,
  environment: row.environment,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  createdBy: row.created_by,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal("id, type, project_id, environment, name, prefix, created_at, created_by, last_used_at, revoked_at")
  const one = (rows: ReadonlyArray<typeof ApiKeyRow.Type>) => Option.map(Option.fromNullable(rows[0]), toApiKey)
  return ApiKeyRepository.of({
    insert: (apiKey, hash) =>
      orDuplicate("api key", apiKey.id)(
        sql`INSERT INTO flagport_api_keys ${sql.insert({
          id: apiKey.id,
          type: apiKey.type,
          project_id: apiKey.projectId,
          environment: apiKey.environment,
          name: apiKey.name,
          prefix: apiKey.prefix,
          key_hash: hash,
          created_at: apiKey.createdAt,
          created_by: apiKey.createdBy,
          last_used_at: apiKey.lastUsedAt,
          revoked_at: apiKey.revokedAt
        })}`
      ).pipe(Effect.asVoid),
    list: () =>
      orFail(sql`SELECT ${columns} FROM flagport_api_keys ORDER BY seq`).pipe(
        Effect.flatMap(decodeKeys),
        Effect.map((rows) => rows.map(toApiKey))
      ),
    get: (id) => orFail(sql`SELECT ${columns} FROM flagport_api_keys WHERE id = ${id}`).pipe(Effect.flatMap(decodeKeys), Effect.map(one)),
    liveMadeBy: (userId) =>
      orFail(sql`SELECT ${columns} FROM flagport_api_keys WHERE created_by = ${userId} AND revoked_at IS NULL ORDER BY seq`).pipe(
        Effect.flatMap(decodeKeys),
        Effect.map((rows) => rows.map(toApiKey))
      ),
    findByHash: (hash) =>
      orFail(sql`SELECT ${columns} FROM flagport_api_keys WHERE key_hash = ${hash}`).pipe(Effect.flatMap(decodeKeys), Effect.map(one)),
    revoke: (id, at) =>
      orFail(
        sql`UPDATE flagport_api_keys SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id} RETURNING id`
      ).pipe(Effect.flatMap(decodeIds), Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new NotFound({ entity: "api key", key: id })) : Effect.void))),
    touch: (id, at) =>
      orFail(
        sql`UPDATE flagport_api_keys SET last_used_at = ${at} WHERE id = ${id} AND revoked_at IS NULL RETURNING id`
      ).pipe(Effect.flatMap(decodeIds), Effect.map((rows) => rows.length > 0))
  })
})

export const layer = Layer.effect(ApiKeyRepository, make)
