import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * What client keys may read of an environment (`clientConfig`): `full`, the specification's
 * default and every existing environment's, or `evaluated` (no `GET /v1/config` for client keys).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_environments ADD COLUMN client_config TEXT NOT NULL DEFAULT 'full'`
})
