import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * People (docs/guide/people.md): users with their memberships, sessions and one-time setup tokens (by the
 * SHA-256 hash of the token, never the token), and failed sign-ins per normalized email.
 * - `email_normalized` (normalizeEmail: trimmed, lowercase) is unique: emails are compared
 *   case-insensitively, and kept as typed in `email`.
 * - `password_hash` (Argon2id PHC string) lives beside the user but is read only by its own query.
 * - Timestamps are ISO 8601 UTC text (they compare in time order as text); booleans are BOOLEAN on
 *   PostgreSQL and 0/1 INTEGER on SQLite.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })
  const bool = sql.onDialectOrElse({ pg: () => sql.literal("BOOLEAN"), orElse: () => sql.literal("INTEGER") })

  yield* sql`CREATE TABLE flagport_users (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    email_normalized TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    admin ${bool} NOT NULL,
    sso ${bool} NOT NULL,
    password_hash TEXT,
    created_at TEXT NOT NULL,
    last_sign_in_at TEXT,
    disabled_at TEXT
  )`

  yield* sql`CREATE TABLE flagport_memberships (
    seq ${serial},
    user_id TEXT NOT NULL REFERENCES flagport_users (id) ON DELETE CASCADE,
    project_id TEXT NOT NULL REFERENCES flagport_projects (id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    UNIQUE (user_id, project_id)
  )`
  // A project's members page reads by project.
  yield* sql`CREATE INDEX flagport_memberships_project ON flagport_memberships (project_id, seq)`

  yield* sql`CREATE TABLE flagport_sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES flagport_users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX flagport_sessions_user ON flagport_sessions (user_id)`
  yield* sql`CREATE INDEX flagport_sessions_expires ON flagport_sessions (expires_at)`

  yield* sql`CREATE TABLE flagport_setup_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES flagport_users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX flagport_setup_tokens_user ON flagport_setup_tokens (user_id)`

  yield* sql`CREATE TABLE flagport_sign_in_failures (
    seq ${serial},
    email TEXT NOT NULL,
    failed_at TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX flagport_sign_in_failures_email ON flagport_sign_in_failures (email, failed_at)`
})
