import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Failed sign-ins are counted per email and client address (docs/guide/people.md, "Passwords and
 * the sign-in limit"), so that nobody locks a person out from an address of their own. Rows
 * recorded before this (no address known) get the empty address: they count for the email, and
 * against attempts whose address is unknown (a host calling the use case directly).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_sign_in_failures ADD COLUMN client_address TEXT NOT NULL DEFAULT ''`
  yield* sql`CREATE INDEX flagport_sign_in_failures_client ON flagport_sign_in_failures (email, client_address, failed_at)`
})
