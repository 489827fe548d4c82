import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * A global admin's permission for an account's next single sign-on to link it by its email
 * (docs/guide/people.md, "What happens at sign-in"), where the rules would refuse: an account
 * linked before (its person's identity changed) or a global admin's. One per account, until it is
 * spent by the link or expires.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE flagport_sso_link_allowances (
    user_id TEXT PRIMARY KEY REFERENCES flagport_users (id) ON DELETE CASCADE,
    allowed_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`
})
