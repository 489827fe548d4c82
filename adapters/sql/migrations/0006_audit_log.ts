import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The audit log: one row per management write, appended in the write's transaction and never
 * updated. `seq` orders the log (pages go newest first by it); `actor`, `before_state` and `after_state` are
 * JSON text. Reads are per project, newest first, optionally narrowed to one resource or one
 * environment; retention deletes by age (`occurred_at`), oldest first.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })
  yield* sql`CREATE TABLE flagport_audit_log (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    resource_type TEXT NOT NULL,
    resource_key TEXT NOT NULL,
    environment TEXT,
    before_state TEXT,
    after_state TEXT
  )`
  yield* sql`CREATE INDEX flagport_audit_log_project ON flagport_audit_log (project_id, seq)`
  yield* sql`CREATE INDEX flagport_audit_log_resource ON flagport_audit_log (project_id, resource_type, resource_key, seq)`
  yield* sql`CREATE INDEX flagport_audit_log_at ON flagport_audit_log (occurred_at, seq)`
})
