import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Deferred, Effect, Fiber, Layer } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Migration 0019_audit_commit_order: the audit log's entries stored before it keep their `seq` as
 * their position (a client resuming the events stream with an old id goes on), later ones come
 * after them; and on PostgreSQL an entry's position is its transaction's commit order, not its
 * insert order: of two writes, the one that appended first and committed last comes last.
 */

const insert = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO flagport_audit_log (id, project_id, occurred_at, actor, action, resource_type, resource_key)
      VALUES (${id}, 'p', '2026-01-01T00:00:00.000Z', '{"type":"cli"}', 'flag.created', 'flag', ${id})`)

const positions = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ id: string; seq: number | string; commit_seq: number | string | null }>`SELECT id, seq, commit_seq FROM flagport_audit_log ORDER BY seq`,
    (rows) => Object.fromEntries(rows.map((r) => [r.id, { seq: Number(r.seq), position: r.commit_seq === null ? null : Number(r.commit_seq) }]))
  ))

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`entries before it keep their seq as position; later ones come after (${name})`, () =>
    Effect.gen(function* () {
      yield* schemaBefore("0019")
      for (const id of ["old-1", "old-2", "old-3"]) yield* insert(id)
      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("audit_commit_order")
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(insert("new"))
      const found = yield* positions
      for (const id of ["old-1", "old-2", "old-3"]) expect(found[id]!.position).toBe(found[id]!.seq)
      expect(found["new"]!.position).toBeGreaterThan(found["old-3"]!.position!)
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0019_audit_commit_order", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)

  it.effect("on PostgreSQL an entry appended first and committed last comes last", () =>
    Effect.gen(function* () {
      yield* Migrations.run
      const sql = yield* SqlClient.SqlClient
      const appended = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const held = yield* Effect.fork(
        sql.withTransaction(insert("appended-first").pipe(Effect.zipLeft(Deferred.succeed(appended, undefined)), Effect.zipLeft(Deferred.await(release))))
      )
      yield* Deferred.await(appended)
      yield* sql.withTransaction(insert("committed-first"))
      // Uncommitted, the held entry is invisible to others (and has no position yet).
      expect(Object.keys(yield* positions)).toEqual(["committed-first"])
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(held)
      const found = yield* positions
      expect(found["appended-first"]!.seq).toBeLessThan(found["committed-first"]!.seq)
      expect(found["appended-first"]!.position).toBeGreaterThan(found["committed-first"]!.position!)
    }).pipe(Effect.provide(Layer.orDie(freshPostgres()))))
})
