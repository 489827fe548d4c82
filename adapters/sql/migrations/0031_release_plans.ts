import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Release plans (adapters/sql/SqlReleasePlanRepository.ts): the plan as the API shows it is JSON
 * text (`body`); beside it the columns the queries filter on (flag, environment, status, version),
 * kept equal to the body's by every write, and the stepper's: when it must next look at the plan
 * (`due_at`) and who holds it until when (`lease_owner`, `lease_expires_at`). Timestamps are
 * ISO 8601 UTC text, compared as text.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })

  yield* sql`CREATE TABLE flagport_release_plans (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    flag_key TEXT NOT NULL,
    environment TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    due_at TEXT,
    lease_owner TEXT,
    lease_expires_at TEXT
  )`
  yield* sql`CREATE INDEX flagport_release_plans_flag ON flagport_release_plans (project_id, flag_key)`
  // The stepper's claim looks only at plans it must look at.
  yield* sql`CREATE INDEX flagport_release_plans_due ON flagport_release_plans (due_at) WHERE due_at IS NOT NULL`
})
