import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Evaluation insights: counts per hour bucket (the hour's start, ISO 8601 UTC text) of each
 * (project, environment, flag, variation), and each flag's last evaluation per environment. Rows
 * are keyed by keys, without foreign keys: a flush is never refused because a flag was deleted
 * in the meantime (its counts simply stay behind, as history).
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE flagport_insights (
    project_id TEXT NOT NULL,
    environment_key TEXT NOT NULL,
    flag_key TEXT NOT NULL,
    hour TEXT NOT NULL,
    variation_key TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (project_id, environment_key, flag_key, hour, variation_key)
  )`
  yield* sql`CREATE TABLE flagport_flag_evaluations (
    project_id TEXT NOT NULL,
    environment_key TEXT NOT NULL,
    flag_key TEXT NOT NULL,
    last_evaluated_at TEXT NOT NULL,
    PRIMARY KEY (project_id, environment_key, flag_key)
  )`
})
