import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Who made each API key (`created_by`, a user id; NULL for the operator's keys and for every key
 * made before this, whose maker is unknown), so that a person's keys are revoked when the person is
 * disabled or may no longer manage the key's project; and the audit log's `reason`, which says so
 * on each such revocation.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_api_keys ADD COLUMN created_by TEXT`
  yield* sql`CREATE INDEX flagport_api_keys_created_by ON flagport_api_keys (created_by)`
  yield* sql`ALTER TABLE flagport_audit_log ADD COLUMN reason TEXT`
})
