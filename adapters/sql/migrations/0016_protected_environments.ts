import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Protected environments (docs/guide/change-requests.md): `protected` (every existing environment stays
 * unprotected) and `required_approvals` (1-5, default 1) on environments; and the change request
 * an audit entry applied (`change_request_id`, null for every other write). Booleans are BOOLEAN on
 * PostgreSQL and 0/1 INTEGER on SQLite, as in 0015_people.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const bool = sql.onDialectOrElse({ pg: () => sql.literal("BOOLEAN NOT NULL DEFAULT FALSE"), orElse: () => sql.literal("INTEGER NOT NULL DEFAULT 0") })
  yield* sql`ALTER TABLE flagport_environments ADD COLUMN protected ${bool}`
  yield* sql`ALTER TABLE flagport_environments ADD COLUMN required_approvals INTEGER NOT NULL DEFAULT 1`
  yield* sql`ALTER TABLE flagport_audit_log ADD COLUMN change_request_id TEXT`
})
