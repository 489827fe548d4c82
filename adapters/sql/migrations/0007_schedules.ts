import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Scheduled changes (adapters/sql/SqlScheduleRepository.ts). `targeting` and `actor` are JSON text;
 * timestamps ISO 8601 UTC text (they compare in time order as text). A schedule leased by a
 * scheduler carries `lease_owner` / `lease_expires_at` until it settles.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })

  yield* sql`CREATE TABLE flagport_schedules (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    flag_key TEXT NOT NULL,
    flag_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    due_at TEXT NOT NULL,
    targeting TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT,
    actor TEXT NOT NULL,
    created_at TEXT NOT NULL,
    settled_at TEXT,
    lease_owner TEXT,
    lease_expires_at TEXT
  )`
  yield* sql`CREATE INDEX flagport_schedules_flag ON flagport_schedules (project_id, flag_key, seq)`
  // The scheduler's claim looks only at pending rows, earliest first.
  yield* sql`CREATE INDEX flagport_schedules_pending ON flagport_schedules (due_at) WHERE status = 'pending'`
})
