import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The per-unit rows of experiments (adapters/sql/SqlExperimentUnitRepository.ts): one row per
 * experiment and unit, the distinct variations each unit was exposed to, and the batches SDKs
 * may resend (by key and batch id, forgotten after 24 hours). Timestamps are ISO 8601 UTC text.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE flagport_experiment_units (
    experiment_id TEXT NOT NULL,
    unit TEXT NOT NULL,
    first_exposure_at TEXT NOT NULL,
    variation_key TEXT NOT NULL,
    variations_seen INTEGER NOT NULL,
    PRIMARY KEY (experiment_id, unit)
  )`
  yield* sql`CREATE TABLE flagport_experiment_unit_variations (
    experiment_id TEXT NOT NULL,
    unit TEXT NOT NULL,
    variation_key TEXT NOT NULL,
    PRIMARY KEY (experiment_id, unit, variation_key)
  )`
  yield* sql`CREATE TABLE flagport_ingest_batches (
    key_id TEXT NOT NULL,
    batch_id TEXT NOT NULL,
    received_at TEXT NOT NULL,
    PRIMARY KEY (key_id, batch_id)
  )`
  yield* sql`CREATE INDEX flagport_ingest_batches_received ON flagport_ingest_batches (received_at)`
})
