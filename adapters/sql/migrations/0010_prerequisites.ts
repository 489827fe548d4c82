import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Prerequisites: each flag configuration may require other flags of its environment to serve a
 * given variation. Stored as JSON text like the rules; existing configurations require nothing.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_flag_configs ADD COLUMN prerequisites TEXT NOT NULL DEFAULT '[]'`
})
