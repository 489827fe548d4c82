import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Insights retention (FLAGPORT_INSIGHTS_RETENTION_DAYS) deletes the hourly counts of old hours,
 * across every project: an index on `hour` lets it find them without scanning the table (the
 * primary key starts with the project).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX flagport_insights_hour ON flagport_insights (hour)`
})
