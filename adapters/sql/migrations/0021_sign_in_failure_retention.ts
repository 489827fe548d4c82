import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Failed sign-ins are deleted by their time once no window counts them (SignInFailureRetention.ts),
 * across emails: an index by time alone, so that delete does not read the whole table.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX flagport_sign_in_failures_time ON flagport_sign_in_failures (failed_at)`
})
