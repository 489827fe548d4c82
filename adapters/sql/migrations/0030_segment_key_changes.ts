import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The change log of segments' key lists (adapters/sql/SqlSegmentKeyRepository.ts): one row per
 * version a PATCH made, with the keys it added and removed as JSON arrays, so a holder of the
 * version before (the server's evaluator, an SDK) takes the change instead of reading a million
 * keys again. Only the latest few versions of a list are kept; a replace clears its list's rows.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE flagport_segment_key_changes (
    segment_id TEXT NOT NULL,
    list TEXT NOT NULL,
    version INTEGER NOT NULL,
    added TEXT NOT NULL,
    removed TEXT NOT NULL,
    PRIMARY KEY (segment_id, list, version)
  )`
})
