import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The core tables (STORAGE helper). One schema for PostgreSQL and SQLite:
 * - `seq` is an auto-increment surrogate key that gives creation order; the public `id` is a
 *   unique text column (UUIDv7 by default), so foreign keys and the API use ids.
 * - JSON (variations, rules, conditions, outbox payloads) is TEXT: exact round trips on both
 *   engines, no JSON type needed.
 * - Timestamps are ISO 8601 UTC text (they sort in time order as text).
 * - Booleans are BOOLEAN on PostgreSQL and 0/1 INTEGER on SQLite.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })
  const bool = sql.onDialectOrElse({ pg: () => sql.literal("BOOLEAN"), orElse: () => sql.literal("INTEGER") })

  yield* sql`CREATE TABLE flagport_projects (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    revision INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`

  yield* sql`CREATE TABLE flagport_environments (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES flagport_projects (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (project_id, key)
  )`

  yield* sql`CREATE TABLE flagport_flags (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES flagport_projects (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    type TEXT NOT NULL,
    variations TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_id, key)
  )`

  yield* sql`CREATE TABLE flagport_flag_configs (
    flag_id TEXT NOT NULL REFERENCES flagport_flags (id) ON DELETE CASCADE,
    environment_id TEXT NOT NULL REFERENCES flagport_environments (id) ON DELETE CASCADE,
    enabled ${bool} NOT NULL,
    default_variation_key TEXT NOT NULL,
    off_variation_key TEXT NOT NULL,
    rules TEXT NOT NULL,
    PRIMARY KEY (flag_id, environment_id)
  )`
  yield* sql`CREATE INDEX flagport_flag_configs_environment ON flagport_flag_configs (environment_id)`

  yield* sql`CREATE TABLE flagport_segments (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES flagport_projects (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    conditions TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (project_id, key)
  )`

  yield* sql`CREATE TABLE flagport_api_keys (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    project_id TEXT REFERENCES flagport_projects (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
  )`

  yield* sql`CREATE TABLE flagport_outbox (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    dispatched_at TEXT
  )`
  yield* sql`CREATE INDEX flagport_outbox_pending ON flagport_outbox (seq) WHERE dispatched_at IS NULL`
  yield* sql`CREATE INDEX flagport_outbox_project ON flagport_outbox (project_id, seq)`
})
