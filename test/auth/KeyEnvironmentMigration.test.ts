import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import * as SqlApiKeyRepository from "../../adapters/sql/SqlApiKeyRepository.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Upgrading to 0005_key_environments in place: keys stored under the earlier schema keep working
 * and are valid in every environment (`environment` null); new keys can be bound. SQLite and PostgreSQL.
 */

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`existing keys become unbound; new ones can be bound (${name})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* schemaBefore("0005")
      yield* sql`INSERT INTO flagport_projects (id, name, created_at, updated_at)
        VALUES ('p', 'P', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`
      yield* sql`INSERT INTO flagport_api_keys (id, type, project_id, name, prefix, key_hash, created_at)
        VALUES ('old', 'client', 'p', 'old key', 'cli_Abcd', 'hash-old', '2026-01-01T00:00:00.000Z')`

      // 0005 first, then whatever came after it.
      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("key_environments")
      const keys = yield* Effect.provide(ApiKeyRepository, SqlApiKeyRepository.layer)
      const old = yield* keys.findByHash("hash-old")
      expect(Option.map(old, (key) => ({ id: key.id, projectId: key.projectId, environment: key.environment }))).toEqual(
        Option.some({ id: "old", projectId: "p", environment: null })
      )
      yield* keys.insert(
        {
          id: "new",
          type: "client",
          projectId: "p",
          environment: "production",
          name: "bound",
          prefix: "cli_Efgh",
          createdAt: "2026-02-01T00:00:00.000Z",
          createdBy: null,
          lastUsedAt: null,
          revokedAt: null
        },
        "hash-new"
      )
      expect(Option.map(yield* keys.get("new"), (key) => key.environment)).toEqual(Option.some("production"))
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0005_key_environments", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
