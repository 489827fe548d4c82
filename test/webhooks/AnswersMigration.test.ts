import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Upgrading to 0012_webhook_answers: attempts stored by earlier versions kept the start of a
 * destination's non-2xx body in `error`; after the upgrade only the status is left. Errors of
 * attempts without an answer (our own words) and of successes stay. SQLite and PostgreSQL.
 */

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`stored answers are cut back to their status (${name})`, () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* schemaBefore("0012")
      const at = "2026-01-01T00:00:00.000Z"
      yield* sql`INSERT INTO flagport_webhooks (id, project_id, url, events, enabled, created_at, updated_at)
        VALUES ('w', 'p', 'http://10.0.0.5/', '["flag.created"]', 1, ${at}, ${at})`
      yield* sql`INSERT INTO flagport_webhook_deliveries (id, webhook_id, project_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
        VALUES ('d', 'w', 'p', 'e', 'flag.created', '{}', 'failed', ${at}, ${at}, ${at})`
      yield* sql`INSERT INTO flagport_webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, error, next_attempt_at)
        VALUES ('d', ${at}, 500, 3, 'HTTP 500: INTERNAL-SECRET: db_password=hunter2', NULL),
          ('d', ${at}, 302, 3, 'HTTP 302', NULL),
          ('d', ${at}, NULL, 10000, 'timed out after 10000 ms', NULL),
          ('d', ${at}, 200, 3, NULL, NULL)`

      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("webhook_answers")
      const rows = yield* sql<{ statusCode: number | null; error: string | null }>`
        SELECT status_code AS "statusCode", error FROM flagport_webhook_attempts ORDER BY seq`
      expect(rows.map((r) => [r.statusCode === null ? null : Number(r.statusCode), r.error])).toEqual([
        [500, "HTTP 500"],
        [302, "HTTP 302"],
        [null, "timed out after 10000 ms"],
        [200, null]
      ])
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0012_webhook_answers", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
