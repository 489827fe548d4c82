import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The batches SDKs may resend are one per key, route and id (adapters/sql/SqlExperimentUnitRepository.ts):
 * an exposure batch and a metric event batch with the same id are two batches, so neither is
 * acknowledged as a duplicate of the other. A primary key cannot change in place on SQLite: the
 * table is made again. A batch remembered before this migration is remembered for both routes,
 * since which one it came by was not recorded: its resend on either route still counts once.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE flagport_ingest_batch_routes (
    key_id TEXT NOT NULL,
    route TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    received_at TEXT NOT NULL,
    PRIMARY KEY (key_id, route, batch_id)
  )`
  yield* sql`INSERT INTO flagport_ingest_batch_routes (key_id, route, batch_id, received_at)
    SELECT key_id, 'exposures', batch_id, received_at FROM flagport_ingest_batches
    UNION ALL SELECT key_id, 'track', batch_id, received_at FROM flagport_ingest_batches`
  yield* sql`DROP TABLE flagport_ingest_batches`
  yield* sql`ALTER TABLE flagport_ingest_batch_routes RENAME TO flagport_ingest_batches`
  yield* sql`CREATE INDEX flagport_ingest_batches_received ON flagport_ingest_batches (received_at)`
})
