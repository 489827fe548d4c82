import { SqlClient } from "@effect/sql"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { emptyList, KEY_LIST_CHANGES_KEPT, type KeyListInfo, KeyListName } from "../../src/domain/definitions/SegmentKeys.js"
import { SegmentKeyRepository } from "../../src/ports/SegmentKeyRepository.js"
import { decodeRows, SqlInteger } from "./SqlRows.js"
import { orFail } from "./SqlSupport.js"

/**
 * SegmentKeyRepository over @effect/sql (tables in migrations/0028_segment_keys.ts), the same
 * statements on SQLite and PostgreSQL. A chunk of keys travels as ONE parameter, a JSON array
 * unpacked by the database (`json_each`, `json_array_elements_text`): 10,000 keys a statement
 * without nearing either engine's limit on bound parameters, and without building a statement of
 * 10,000 placeholders.
 */

const ListRow = Schema.Struct({
  list: KeyListName,
  generation: SqlInteger,
  version: SqlInteger,
  count: SqlInteger,
  updated_at: Schema.String
})
const decodeLists = decodeRows(ListRow, "flagport_segment_key_lists")
const decodeWritten = decodeRows(Schema.Struct({ ...ListRow.fields, segment_id: Schema.String }), "flagport_segment_key_lists")
const decodeSeq = decodeRows(Schema.Struct({ seq: SqlInteger }), "flagport_segment_key_generations")
const decodeCount = decodeRows(Schema.Struct({ n: SqlInteger }), "flagport_segment_keys")
const decodeKeys = decodeRows(Schema.Struct({ key: Schema.String }), "flagport_segment_keys")
const decodePage = decodeRows(Schema.Struct({ keys: Schema.parseJson(Schema.Array(Schema.String)) }), "flagport_segment_keys")
const decodeChanges = decodeRows(
  Schema.Struct({ version: SqlInteger, added: Schema.parseJson(Schema.Array(Schema.String)), removed: Schema.parseJson(Schema.Array(Schema.String)) }),
  "flagport_segment_key_changes"
)

/** Keys a statement: each statement stays short (milliseconds), so nothing waits long behind one. */
const CHUNK = 10_000

const infoOf = (row: typeof ListRow.Type): KeyListInfo => ({ list: row.list, version: row.version, count: row.count, updatedAt: row.updated_at })

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  /** The elements of a JSON array of strings, as rows with one column `value`. */
  const elements = (keys: ReadonlyArray<string>) => {
    const json = JSON.stringify(keys)
    return sql.onDialectOrElse({
      pg: () => sql`SELECT json_array_elements_text(${json}::json) AS value`,
      orElse: () => sql`SELECT value FROM json_each(${json})`
    })
  }

  const listRow = (segmentId: string, list: KeyListName) =>
    orFail(sql`SELECT list, generation, version, count, updated_at FROM flagport_segment_key_lists
      WHERE segment_id = ${segmentId} AND list = ${list}`).pipe(Effect.flatMap(decodeLists), Effect.map((rows) => rows[0]))

  const begin = (segmentId: string, list: KeyListName, now: string) =>
    orFail(sql`INSERT INTO flagport_segment_key_generations ${sql.insert({ segment_id: segmentId, list, created_at: now })} RETURNING seq`).pipe(
      Effect.flatMap(decodeSeq),
      Effect.map((rows) => rows[0]!.seq)
    )

  const countOf = (generation: number) =>
    orFail(sql`SELECT COUNT(*) AS n FROM flagport_segment_keys WHERE generation = ${generation}`).pipe(
      Effect.flatMap(decodeCount),
      Effect.map((rows) => rows[0]!.n)
    )

  // `WHERE true`: SQLite's parser needs it between a SELECT and ON CONFLICT.
  const insertKeys = (generation: number, keys: ReadonlyArray<string>, returning: boolean) =>
    sql`INSERT INTO flagport_segment_keys (generation, key)
      SELECT ${generation}, value FROM (${elements(keys)}) AS incoming WHERE true ON CONFLICT DO NOTHING ${returning ? sql.literal("RETURNING key") : sql.literal("")}`

  const setList = (segmentId: string, list: KeyListName, generation: number, version: number, count: number, now: string) =>
    orFail(sql`INSERT INTO flagport_segment_key_lists ${sql.insert({ segment_id: segmentId, list, generation, version, count, updated_at: now })}
      ON CONFLICT (segment_id, list) DO UPDATE SET generation = excluded.generation, version = excluded.version,
        count = excluded.count, updated_at = excluded.updated_at`)

  /**
   * Deletes a generation's keys a chunk a statement, then its record (last: until then a sweep
   * finds it again). Each chunk ends at the CHUNK-th key (one index probe); nothing comes back of the
   * deleted rows (a million keys sent back to be counted cost the event loop more than the deleting).
   */
  const drop = (generation: number) =>
    Effect.gen(function* () {
      for (;;) {
        const last = yield* orFail(sql`SELECT key FROM flagport_segment_keys WHERE generation = ${generation}
          ORDER BY key LIMIT 1 OFFSET ${CHUNK - 1}`).pipe(Effect.flatMap(decodeKeys))
        if (last.length === 0) {
          yield* orFail(sql`DELETE FROM flagport_segment_keys WHERE generation = ${generation}`)
          break
        }
        yield* orFail(sql`DELETE FROM flagport_segment_keys WHERE generation = ${generation} AND key <= ${last[0]!.key}`)
      }
      yield* orFail(sql`DELETE FROM flagport_segment_key_generations WHERE seq = ${generation}`)
    })

  return SegmentKeyRepository.of({
    begin,
    stage: (generation, keys) =>
      Effect.forEach(Arr.chunksOf(keys, CHUNK), (chunk) => orFail(insertKeys(generation, chunk, false)), { discard: true }),
    swap: (segmentId, list, generation, now) =>
      Effect.gen(function* () {
        const row = yield* listRow(segmentId, list)
        const before = row === undefined ? emptyList(list) : infoOf(row)
        const count = yield* countOf(generation)
        yield* setList(segmentId, list, generation, before.version + 1, count, now)
        yield* orFail(sql`DELETE FROM flagport_segment_key_changes WHERE segment_id = ${segmentId} AND list = ${list}`)
        // PostgreSQL plans by its statistics, which know nothing of the rows just staged until
        // autovacuum samples them: without this, reading the new list page by page (KeyListCache.ts)
        // scanned and sorted the whole table for each page (50 s for a million keys, not 2).
        yield* orFail(sql.onDialectOrElse({ pg: () => sql`ANALYZE flagport_segment_keys`, orElse: () => sql`SELECT 1` }))
        return { before, after: { list, version: before.version + 1, count, updatedAt: now }, replaced: row?.generation }
      }),
    drop,
    sweep: (olderThan) =>
      orFail(sql`SELECT seq FROM flagport_segment_key_generations AS g WHERE created_at < ${olderThan}
        AND NOT EXISTS (SELECT 1 FROM flagport_segment_key_lists AS l WHERE l.generation = g.seq)`).pipe(
        Effect.flatMap(decodeSeq),
        Effect.tap((rows) => Effect.forEach(rows, (row) => drop(row.seq), { discard: true })),
        Effect.map((rows) => rows.length)
      ),
    change: (segmentId, list, add, remove, now) =>
      Effect.gen(function* () {
        const row = yield* listRow(segmentId, list)
        const before = row === undefined ? emptyList(list) : infoOf(row)
        const generation = row === undefined ? yield* begin(segmentId, list, now) : row.generation
        const removing = new Set(remove)
        const adding = add.filter((key) => !removing.has(key))
        const removed = remove.length === 0 ? [] : yield* orFail(sql`DELETE FROM flagport_segment_keys WHERE generation = ${generation}
          AND key IN (SELECT value FROM (${elements(remove)}) AS gone) RETURNING key`).pipe(Effect.flatMap(decodeKeys))
        const added = adding.length === 0 ? [] : yield* orFail(insertKeys(generation, adding, true)).pipe(Effect.flatMap(decodeKeys))
        const count = before.count + added.length - removed.length
        const version = before.version + 1
        yield* setList(segmentId, list, generation, version, count, now)
        yield* orFail(sql`INSERT INTO flagport_segment_key_changes ${sql.insert({
          segment_id: segmentId,
          list,
          version,
          added: JSON.stringify(added.map((r) => r.key)),
          removed: JSON.stringify(removed.map((r) => r.key))
        })}`)
        yield* orFail(sql`DELETE FROM flagport_segment_key_changes WHERE segment_id = ${segmentId} AND list = ${list}
          AND version <= ${version - KEY_LIST_CHANGES_KEPT}`)
        return { before, after: { list, version: before.version + 1, count, updatedAt: now } }
      }),
    written: (segmentIds) =>
      segmentIds.length === 0
        ? Effect.succeed([])
        : orFail(sql`SELECT segment_id, list, generation, version, count, updated_at FROM flagport_segment_key_lists
            WHERE segment_id IN (SELECT value FROM (${elements(segmentIds)}) AS ids)`).pipe(
            Effect.flatMap(decodeWritten),
            Effect.map((rows) => rows.map((row) => ({ segmentId: row.segment_id, info: infoOf(row) })))
          ),
    info: (segmentId, list) => Effect.map(listRow(segmentId, list), (row) => (row === undefined ? emptyList(list) : infoOf(row))),
    page: (segmentId, list, after, limit) => {
      // The generation first (a scalar subquery), so each page is one range of the primary key's index.
      const range = sql`SELECT key FROM flagport_segment_keys
        WHERE generation = (SELECT generation FROM flagport_segment_key_lists WHERE segment_id = ${segmentId} AND list = ${list})
        ${after === null ? sql`` : sql`AND key > ${after}`} ORDER BY key LIMIT ${limit}`
      // The page as ONE JSON array: one string to carry (from SQLite's thread, from PostgreSQL's
      // socket) and to parse, where 10,000 rows were 10,000 objects to copy and decode on the event loop.
      return orFail(sql.onDialectOrElse({
        pg: () => sql`SELECT COALESCE(json_agg(key ORDER BY key), '[]')::text AS keys FROM (${range}) AS page`,
        orElse: () => sql`SELECT json_group_array(key ORDER BY key) AS keys FROM (${range}) AS page`
      })).pipe(Effect.flatMap(decodePage), Effect.map((rows) => rows[0]?.keys ?? []))
    },
    changes: (segmentId, list, since) =>
      orFail(sql`SELECT version, added, removed FROM flagport_segment_key_changes
        WHERE segment_id = ${segmentId} AND list = ${list} AND version > ${since} ORDER BY version`).pipe(Effect.flatMap(decodeChanges)),
    forget: (segmentId) =>
      orFail(sql`DELETE FROM flagport_segment_key_changes WHERE segment_id = ${segmentId}`).pipe(
        Effect.zipRight(orFail(sql`DELETE FROM flagport_segment_key_lists WHERE segment_id = ${segmentId} RETURNING list, generation, version, count, updated_at`)),
        Effect.flatMap(decodeLists),
        Effect.map((rows) => rows.map((r) => ({ list: r.list, generation: r.generation })))
      )
  })
})

export const layer = Layer.effect(SegmentKeyRepository, make)
