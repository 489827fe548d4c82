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
 * Upgrading to 0025_key_makers in place: keys stored before it keep working, their maker unknown
 * (`createdBy` null, so no person's change revokes them); new keys record theirs. SQLite and PostgreSQL.
 */

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`existing keys have no maker; new ones record theirs (${name})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* schemaBefore("0025")
      yield* sql`INSERT INTO flagport_projects (id, name, created_at, updated_at)
        VALUES ('p', 'P', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`
      yield* sql`INSERT INTO flagport_api_keys (id, type, project_id, name, prefix, key_hash, created_at)
        VALUES ('old', 'server', 'p', 'old key', 'srv_Abcd', 'hash-old', '2026-01-01T00:00:00.000Z')`

      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("key_makers")
      const keys = yield* Effect.provide(ApiKeyRepository, SqlApiKeyRepository.layer)
      expect(Option.map(yield* keys.findByHash("hash-old"), (key) => [key.id, key.createdBy, key.revokedAt])).toEqual(Option.some(["old", null, null]))
      yield* keys.insert(
        {
          id: "new",
          type: "server",
          projectId: "p",
          environment: null,
          name: "made by someone",
          prefix: "srv_Efgh",
          createdAt: "2026-02-01T00:00:00.000Z",
          createdBy: "user-1",
          lastUsedAt: null,
          revokedAt: null
        },
        "hash-new"
      )
      expect((yield* keys.liveMadeBy("user-1")).map((key) => key.id)).toEqual(["new"])
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0025_key_makers", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
