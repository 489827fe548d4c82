import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import * as SqlFlagRepository from "../../adapters/sql/SqlFlagRepository.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Upgrading to 0010_prerequisites in place: configurations stored under the earlier schema read
 * back with no prerequisites, in the flag and in the snapshot. SQLite and PostgreSQL.
 */

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`existing configurations require nothing (${name})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* schemaBefore("0010")
      yield* sql`INSERT INTO flagport_projects (id, name, created_at, updated_at)
        VALUES ('p', 'P', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`
      yield* sql`INSERT INTO flagport_environments (id, project_id, key, name, created_at)
        VALUES ('e', 'p', 'production', 'Production', '2026-01-01T00:00:00.000Z')`
      yield* sql`INSERT INTO flagport_flags (id, project_id, key, name, type, variations, version, created_at, updated_at)
        VALUES ('f', 'p', 'old', 'Old', 'boolean', '[{"key":"on","value":true},{"key":"off","value":false}]', 1,
          '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`
      yield* sql`INSERT INTO flagport_flag_configs (flag_id, environment_id, enabled, default_variation_key, off_variation_key, rules)
        VALUES ('f', 'e', ${sql.onDialectOrElse({ pg: () => true, orElse: () => 1 })}, 'on', 'off', '[]')`

      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("prerequisites")
      const flags = yield* Effect.provide(FlagRepository, SqlFlagRepository.layer)
      const old = yield* flags.get("p", "old")
      expect(Option.map(old, (flag) => flag.configs.map((c) => c.prerequisites))).toEqual(Option.some([[]]))
      expect((yield* flags.snapshotFlags("p", "production")).map((f) => f.prerequisites)).toEqual([[]])
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0010_prerequisites", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
