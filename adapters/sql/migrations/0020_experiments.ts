import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Experiments (adapters/sql/SqlExperimentRepository.ts): the record as the API shows it is JSON
 * text (`body`); beside it the columns the queries filter on (status, environment), kept equal to
 * the body's by every write. Timestamps are ISO 8601 UTC text.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })

  yield* sql`CREATE TABLE flagport_experiments (
    seq ${serial},
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    key TEXT NOT NULL,
    environment TEXT NOT NULL,
    status TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (project_id, key)
  )`
  // The ingestion asks for the running experiments of one environment.
  yield* sql`CREATE INDEX flagport_experiments_running ON flagport_experiments (project_id, environment) WHERE status = 'running'`
})
