import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
/**
 * Segments' key lists (adapters/sql/SqlSegmentKeyRepository.ts): each list names its current
 * generation; the keys of every generation, the current ones and those staged by an upload not yet
 * swapped in, live in one table keyed by generation and key (SQLite: WITHOUT ROWID, the key stored
 * once; PostgreSQL: byte order, "C", so paging by key needs no locale). Generations are numbered by
 * their own table, which also remembers whose they are.
 */
export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const serial = sql.onDialectOrElse({
    pg: () => sql.literal("BIGSERIAL PRIMARY KEY"),
    orElse: () => sql.literal("INTEGER PRIMARY KEY AUTOINCREMENT")
  })
  const keyText = sql.onDialectOrElse({ pg: () => sql.literal(`TEXT COLLATE "C"`), orElse: () => sql.literal("TEXT") })
  const withoutRowid = sql.onDialectOrElse({ pg: () => sql.literal(""), orElse: () => sql.literal("WITHOUT ROWID") })
  yield* sql`CREATE TABLE flagport_segment_key_generations (
    seq ${serial},
    segment_id TEXT NOT NULL,
    list TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`
  yield* sql`CREATE TABLE flagport_segment_key_lists (
    segment_id TEXT NOT NULL,
    list TEXT NOT NULL,
    generation BIGINT NOT NULL,
    version INTEGER NOT NULL,
    count INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (segment_id, list)
  )`
  yield* sql`CREATE TABLE flagport_segment_keys (
    generation BIGINT NOT NULL,
    key ${keyText} NOT NULL,
    PRIMARY KEY (generation, key)
  ) ${withoutRowid}`
})
