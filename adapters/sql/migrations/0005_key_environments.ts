import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Environment-scoped keys: a key may be bound to one environment of its project, which it alone
 * may then evaluate, download and stream. Existing keys stay valid in every environment (NULL).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_api_keys ADD COLUMN environment TEXT`
})
