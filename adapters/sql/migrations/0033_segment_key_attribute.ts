import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * A segment names the context attribute its key lists match (`keyAttribute`): `key`, the context
 * key, for every segment made before, which is what their lists matched.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_segments ADD COLUMN key_attribute TEXT NOT NULL DEFAULT 'key'`
})
