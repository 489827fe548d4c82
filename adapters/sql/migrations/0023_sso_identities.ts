import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The single sign-on identities each account is linked to (docs/guide/people.md, "What happens at
 * sign-in"): the provider's issuer and the person's subject there, recorded at the first single
 * sign-on and matched by afterwards, so that an email alone never decides whose account a sign-in
 * opens. One identity opens one account; an account keeps the identities it was linked to.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE flagport_sso_identities (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES flagport_users (id) ON DELETE CASCADE,
    linked_at TEXT NOT NULL,
    PRIMARY KEY (issuer, subject)
  )`
  yield* sql`CREATE INDEX flagport_sso_identities_user ON flagport_sso_identities (user_id)`
})
