/**
 * The SQLite client on worker threads (adapters/sql-sqlite/worker/) against the plain version it
 * replaces, @effect/sql-sqlite-node's client on the event loop: the same statements, on two fresh
 * files, give the same answers: rows, `.raw` results, `.values`, `.unprepared`, safe integers,
 * a unique violation's driver code, a failed transaction rolled back, a failed nested one rolled
 * back to its savepoint. (BLOBs come back as the bytes they were, a Uint8Array across the thread
 * boundary where the plain client answers a Buffer, which is one: compared as bytes.)
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { afterAll, describe, expect, it } from "vitest"
import * as WorkerSqlClient from "../../adapters/sql-sqlite/worker/WorkerSqlClient.js"

const dir = mkdtempSync(join(tmpdir(), "flagport-worker-client-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Bytes as a plain array, whichever Uint8Array class carries them; everything else as it is. */
const plain = (value: unknown): unknown =>
  value instanceof Uint8Array
    ? { bytes: Array.from(value) }
    : Array.isArray(value)
      ? value.map(plain)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plain(inner)]))
        : value

const driverCode = (error: SqlError) => (error.cause as { readonly code?: string }).code

/** Every kind of call the repositories make, each answer kept. */
const session = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const names = sql`SELECT name FROM t ORDER BY id`
  yield* sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER, data BLOB, r REAL)`
  return {
    insert: yield* sql`INSERT INTO t (name, n, data, r) VALUES (${"a"}, ${1}, ${new Uint8Array([1, 2, 255])}, ${1.5})`,
    insertRaw: yield* sql`INSERT INTO t (name, n, data, r) VALUES (${"b"}, ${2 ** 53 + 2}, ${null}, ${null})`.raw,
    rows: yield* sql`SELECT * FROM t ORDER BY id`,
    values: yield* sql`SELECT name, n, r FROM t ORDER BY id`.values,
    safeIntegers: yield* sql`SELECT n, id FROM t WHERE name = ${"b"}`.pipe(Effect.provideService(SqlClient.SafeIntegers, true)),
    safeRaw: yield* sql`UPDATE t SET n = n + 1 WHERE name = ${"a"}`.raw.pipe(Effect.provideService(SqlClient.SafeIntegers, true)),
    duplicate: yield* Effect.flip(sql`INSERT INTO t (name) VALUES (${"a"})`).pipe(Effect.map(driverCode)),
    malformed: yield* Effect.flip(sql`SELEC name FROM t`).pipe(Effect.map(driverCode)),
    rolledBack: yield* Effect.flip(sql.withTransaction(Effect.zipRight(sql`INSERT INTO t (name) VALUES (${"c"})`, Effect.fail("refused" as const)))),
    afterRollback: yield* names,
    nested: yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`INSERT INTO t (name) VALUES (${"d"})`
        const inner = yield* Effect.flip(sql.withTransaction(Effect.zipRight(sql`INSERT INTO t (name) VALUES (${"e"})`, Effect.fail("inner" as const))))
        return { inner, seen: yield* names }
      })
    ),
    committed: yield* names,
    unprepared: yield* sql`SELECT count(*) AS c, sum(n) AS total FROM t`.unprepared,
    deleted: yield* sql`DELETE FROM t WHERE name IN (${"a"}, ${"zz"})`.raw,
    last: yield* sql`SELECT * FROM t ORDER BY id`
  }
})

const run = <E>(client: Layer.Layer<SqlClient.SqlClient, E>) => Effect.runPromise(Effect.provide(session, client)).then(plain)

describe("the SQLite client on worker threads", () => {
  it("answers every kind of call as @effect/sql-sqlite-node's client on the event loop does", async () => {
    const viaPlain = await run(SqliteClient.layer({ filename: join(dir, "plain.db") }))
    const viaWorkers = await run(WorkerSqlClient.layer({ filename: join(dir, "workers.db"), busyTimeoutMs: 5000 }))
    expect(viaWorkers).toEqual(viaPlain)
    // The session says something: the answers compared are the ones meant.
    expect(viaPlain).toMatchObject({
      insertRaw: { changes: 1, lastInsertRowid: 2 },
      safeIntegers: [{ n: 2n ** 53n + 2n, id: 2n }],
      duplicate: "SQLITE_CONSTRAINT_UNIQUE",
      malformed: "SQLITE_ERROR",
      rolledBack: "refused",
      afterRollback: [{ name: "a" }, { name: "b" }],
      nested: { inner: "inner", seen: [{ name: "a" }, { name: "b" }, { name: "d" }] },
      last: [{ id: 2, name: "b", n: 2 ** 53 + 2, data: null, r: null }, { id: 3, name: "d", n: null, data: null, r: null }]
    })
    expect(viaPlain).toMatchObject({ rows: [{ data: { bytes: [1, 2, 255] } }, { data: null }] })
  })
})
