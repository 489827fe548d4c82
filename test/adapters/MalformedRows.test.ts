import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import * as SqlFlagRepository from "../../adapters/sql/SqlFlagRepository.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"

/**
 * A row that does not match its schema (written straight into the table, as a hand edit or a
 * bug would) is read as a StorageError naming the table, the row, the column and the path inside
 * a JSON column: never a value of the wrong shape. SQLite and PostgreSQL.
 */

const AT = "2026-01-01T00:00:00.000Z"

const seed = (variations: string, rules: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* Migrations.run
    const enabled = sql.onDialectOrElse({ pg: () => true, orElse: () => 1 })
    yield* sql`INSERT INTO flagport_projects (id, name, created_at, updated_at) VALUES ('p', 'P', ${AT}, ${AT})`
    yield* sql`INSERT INTO flagport_environments (id, project_id, key, name, created_at) VALUES ('e', 'p', 'production', 'Production', ${AT})`
    yield* sql`INSERT INTO flagport_flags (id, project_id, key, name, type, variations, version, created_at, updated_at)
      VALUES ('f', 'p', 'broken', 'Broken', 'boolean', ${variations}, 1, ${AT}, ${AT})`
    yield* sql`INSERT INTO flagport_flag_configs (flag_id, environment_id, enabled, default_variation_key, off_variation_key, prerequisites, rules, version)
      VALUES ('f', 'e', ${enabled}, 'on', 'off', '[]', ${rules}, 1)`
    return yield* Effect.provide(FlagRepository, SqlFlagRepository.layer)
  })

const VARIATIONS = '[{"key":"on","value":true},{"key":"off","value":false}]'
const messageOf = (error: StorageError) => error.message

const cases = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  describe(name, () => {
    it.effect("an unknown operator inside `rules`: the table, the row, the column and the path", () =>
      Effect.gen(function* () {
        const flags = yield* seed(VARIATIONS, '[{"id":"r","conditions":[{"attribute":"a","operator":"bogus","values":[]}],"variationKey":"on"}]')
        const where = "flagport_flag_configs (row 'broken'), column rules[0].conditions[0].operator"
        const reads: ReadonlyArray<Effect.Effect<unknown, StorageError>> = [flags.get("p", "broken"), flags.list("p"), flags.snapshotFlags("p", "production")]
        for (const read of reads) {
          const error = yield* Effect.flip(read)
          expect(error._tag).toBe("StorageError")
          expect(messageOf(error)).toContain(`Malformed row in the database: ${where}: Expected "`)
          expect(messageOf(error)).toContain('actual "bogus"')
        }
      }).pipe(Effect.provide(Layer.orDie(database()))))

    it.effect("a row read well once, then broken by hand: the next snapshot read fails all the same", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const flags = yield* seed(VARIATIONS, '[{"id":"r","conditions":[],"variationKey":"on"}]')
        const [first] = yield* flags.snapshotFlags("p", "production")
        // Unchanged: the value decoded last time (adapters/sql/decoding/RememberedReads.ts).
        expect((yield* flags.snapshotFlags("p", "production"))[0]).toBe(first)
        yield* sql`UPDATE flagport_flag_configs SET rules = '[{"id":"r","conditions":[{"operator":"bogus","values":[]}]}]'`
        const error = yield* Effect.flip(flags.snapshotFlags("p", "production"))
        expect(messageOf(error)).toContain("flagport_flag_configs (row 'broken'), column rules[0].conditions[0].operator")
        yield* sql`UPDATE flagport_flag_configs SET rules = '[{"id":"r2","conditions":[],"variationKey":"off"}]'`
        const [mended] = yield* flags.snapshotFlags("p", "production")
        expect(mended?.rules).toEqual([{ id: "r2", conditions: [], variationKey: "off" }])
      }).pipe(Effect.provide(Layer.orDie(database()))))

    it.effect("text that is not JSON in `variations`", () =>
      Effect.gen(function* () {
        const flags = yield* seed("not json", "[]")
        const error = yield* Effect.flip(flags.snapshotFlags("p", "production"))
        expect(messageOf(error)).toMatch(/^Malformed row in the database: flagport_flags \(row 'broken'\), column variations: /)
      }).pipe(Effect.provide(Layer.orDie(database()))))

    it.effect("a variation whose key breaks the key rule", () =>
      Effect.gen(function* () {
        const flags = yield* seed('[{"key":"no spaces allowed","value":true}]', "[]")
        const error = yield* Effect.flip(flags.get("p", "broken"))
        expect(messageOf(error)).toContain("flagport_flags (row 'broken'), column variations[0].key: ")
      }).pipe(Effect.provide(Layer.orDie(database()))))
  })

describe("malformed rows", () => {
  cases("sqlite", freshSqlite)
  cases("postgres", freshPostgres)
})
