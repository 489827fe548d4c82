import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import * as SqlFlagRepository from "../../adapters/sql/SqlFlagRepository.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Upgrading to 0011_config_versions in place: configurations stored under the earlier schema
 * serve their flag's current version, and a later targeting change moves its environment's only.
 * SQLite and PostgreSQL.
 */

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`existing configurations serve their flag's version (${name})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* schemaBefore("0011")
      yield* sql`INSERT INTO flagport_projects (id, name, created_at, updated_at)
        VALUES ('p', 'P', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`
      yield* sql`INSERT INTO flagport_environments (id, project_id, key, name, created_at)
        VALUES ('e1', 'p', 'development', 'Development', '2026-01-01T00:00:00.000Z'),
          ('e2', 'p', 'production', 'Production', '2026-01-01T00:00:00.001Z')`
      yield* sql`INSERT INTO flagport_flags (id, project_id, key, name, type, variations, version, created_at, updated_at)
        VALUES ('f', 'p', 'old', 'Old', 'boolean', '[{"key":"on","value":true},{"key":"off","value":false}]', 7,
          '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`
      const enabled = sql.onDialectOrElse({ pg: () => true, orElse: () => 1 })
      yield* sql`INSERT INTO flagport_flag_configs (flag_id, environment_id, enabled, default_variation_key, off_variation_key, rules)
        VALUES ('f', 'e1', ${enabled}, 'on', 'off', '[]'), ('f', 'e2', ${enabled}, 'on', 'off', '[]')`

      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("config_versions")
      const flags = yield* Effect.provide(FlagRepository, SqlFlagRepository.layer)
      expect((yield* flags.snapshotFlags("p", "development")).map((f) => f.version)).toEqual([7])
      expect((yield* flags.snapshotFlags("p", "production")).map((f) => f.version)).toEqual([7])

      const stored = yield* Effect.flatMap(flags.get("p", "old"), Effect.orDie)
      const retargeted = {
        ...stored,
        version: 8,
        configs: stored.configs.map((c) => (c.environmentKey === "production" ? { ...c, enabled: false } : c))
      }
      yield* flags.updateConfig("p", retargeted, "production", 7)
      expect((yield* flags.snapshotFlags("p", "development")).map((f) => f.version)).toEqual([7])
      expect((yield* flags.snapshotFlags("p", "production")).map((f) => f.version)).toEqual([8])
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0011_config_versions", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
