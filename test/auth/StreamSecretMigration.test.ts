import { describe, expect, it } from "@effect/vitest"
import { type SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as MemoryStreamSecret from "../../adapters/memory/MemoryStreamSecret.js"
import * as Migrations from "../../adapters/sql/Migrations.js"
import * as SqlStreamSecret from "../../adapters/sql/SqlStreamSecret.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { StreamSecret } from "../../src/ports/StreamSecret.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Migration 0008_stream_secret on a database of the previous schema: it makes one random secret,
 * which every reader of the database then gets (what lets one process verify the stream tokens
 * another issued), and running the migrations again leaves it as it is. SQLite and PostgreSQL.
 */

const readSecret = Effect.flatMap(Effect.provide(StreamSecret, SqlStreamSecret.layer), (secret) => secret.get)

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`makes one secret, the same for every reader, kept by later runs (${name})`, () =>
    Effect.gen(function* () {
      yield* schemaBefore("0008")
      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("stream_secret")
      const first = yield* readSecret
      expect(first.byteLength).toBe(32)
      expect(new Set(first).size).toBeGreaterThan(8) // random bytes, not a constant
      expect(yield* Migrations.run).toEqual([])
      expect(yield* readSecret).toEqual(first)
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0008_stream_secret", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)

  it.effect("two databases get two secrets", () =>
    Effect.gen(function* () {
      const one = yield* Effect.zipRight(Migrations.run, readSecret).pipe(Effect.provide(Layer.orDie(freshSqlite())))
      const two = yield* Effect.zipRight(Migrations.run, readSecret).pipe(Effect.provide(Layer.orDie(freshSqlite())))
      expect(one).not.toEqual(two)
    }))

  it.effect("the memory backend makes one per database too", () =>
    Effect.gen(function* () {
      const read = Effect.flatMap(StreamSecret, (secret) => secret.get)
      const one = yield* Effect.provide(Effect.zip(read, read), MemoryStreamSecret.layer)
      const two = yield* Effect.provide(read, MemoryStreamSecret.layer)
      expect(one[0]).toEqual(one[1])
      expect(one[0].byteLength).toBe(32)
      expect(two).not.toEqual(one[0])
    }))
})
