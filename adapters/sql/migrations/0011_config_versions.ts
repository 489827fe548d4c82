import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Configuration versions: each flag configuration records the flag's version as of the last
 * change to what its environment serves (its own targeting, or the flag's variations), so a
 * change in one environment leaves the `version` another environment serves as it was.
 * Existing configurations start at their flag's current version.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE flagport_flag_configs ADD COLUMN version INTEGER NOT NULL DEFAULT 0`
  yield* sql`UPDATE flagport_flag_configs
    SET version = (SELECT f.version FROM flagport_flags f WHERE f.id = flagport_flag_configs.flag_id)`
})
