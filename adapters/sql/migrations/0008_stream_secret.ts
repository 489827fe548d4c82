import { randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * The secret that signs stream tokens (`GET /v1/stream?token=`): one row, made here once, so
 * every process on the database signs and verifies with the same key. 32 bytes from the OS
 * CSPRNG, stored as base64. Migrations run once per database (on PostgreSQL under a lock), so
 * concurrent starters never make two.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE flagport_stream_secret (
    id INTEGER PRIMARY KEY,
    secret TEXT NOT NULL
  )`
  yield* sql`INSERT INTO flagport_stream_secret (id, secret) VALUES (1, ${randomBytes(32).toString("base64")})`
})
