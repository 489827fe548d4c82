import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Change requests (adapters/sql/SqlChangeRequestRepository.ts). The request as the API shows it
 * is one JSON text column (`body`); what is searched or compared-and-set is in columns of its own:
 * the project and status (lists), `version` (every write's compare-and-set), and for the
 * scheduler `apply_at`, `failed` and the lease. `seq` orders them (newest first).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })
  yield* sql`CREATE TABLE flagport_change_requests (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    apply_at TEXT,
    failed INTEGER NOT NULL DEFAULT 0,
    body TEXT NOT NULL,
    lease_owner TEXT,
    lease_until TEXT
  )`
  yield* sql`CREATE INDEX flagport_change_requests_project ON flagport_change_requests (project_id, seq)`
  // The scheduler's claim looks only at approved rows with a time, earliest first.
  yield* sql`CREATE INDEX flagport_change_requests_due ON flagport_change_requests (apply_at) WHERE status = 'approved'`
})
