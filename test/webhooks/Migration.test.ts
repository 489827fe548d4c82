import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, type Layer } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Upgrading to 0004_webhook_windows: webhooks stored under the earlier schema get an enabled
 * window (enabled since creation; a disabled one from creation to its last update), on SQLite and
 * PostgreSQL.
 */

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`existing webhooks get their enabled windows (${name})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* schemaBefore("0004")
      const row = (id: string, enabled: number, createdAt: string, updatedAt: string) =>
        sql`INSERT INTO flagport_webhooks (id, project_id, url, events, enabled, created_at, updated_at)
          VALUES (${id}, 'p', 'https://e.com/', '["flag.created"]', ${enabled}, ${createdAt}, ${updatedAt})`
      yield* row("on", 1, "2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z")
      yield* row("off", 0, "2026-01-01T00:00:00.000Z", "2026-03-01T00:00:00.000Z")

      // 0004 first, then whatever came after it.
      expect((yield* Migrations.run).map(([, name]) => name)[0]).toBe("webhook_windows")
      const windows = yield* sql<{ id: string; enabledAt: string | null; disabledAt: string | null }>`
        SELECT id, enabled_at AS "enabledAt", disabled_at AS "disabledAt" FROM flagport_webhooks ORDER BY id`
      expect(windows).toEqual([
        { id: "off", enabledAt: "2026-01-01T00:00:00.000Z", disabledAt: "2026-03-01T00:00:00.000Z" },
        { id: "on", enabledAt: "2026-01-01T00:00:00.000Z", disabledAt: null }
      ])
    }).pipe(Effect.provide(database())))

describe("migration 0004_webhook_windows", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
