import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import { freshPostgres, freshSqlite } from "../fixtures/databases.js"
import { schemaBefore } from "../fixtures/SchemaBefore.js"

/**
 * Migration 0024_email_normalized: accounts stored when emails were compared by a full Unicode
 * lowercase are compared by normalizeEmail afterwards (ASCII lowercase, local parts beyond ASCII
 * exactly, domains NFKC); one whose new form another account already has keeps its old one.
 */

const insert = (id: string, email: string, normalized: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO flagport_users (id, email, email_normalized, name, admin, sso, created_at)
      VALUES (${id}, ${email}, ${normalized}, '', FALSE, FALSE, '2026-01-01T00:00:00.000Z')`)

const normalizedById = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ id: string; email_normalized: string }>`SELECT id, email_normalized FROM flagport_users`, (rows) =>
    Object.fromEntries(rows.map((r) => [r.id, r.email_normalized]))))

const upgrade = (name: string, database: () => Layer.Layer<SqlClient.SqlClient, StorageError>) =>
  it.effect(`recomputes the addresses beyond ASCII, keeps the others and any that would collide (${name})`, () =>
    Effect.gen(function* () {
      yield* schemaBefore("0024")
      // As the old comparison stored them: String.prototype.toLowerCase of the whole address.
      for (const [id, email] of [
        ["kelvin", "\u212Aate@example.com"],
        ["elise", "Élise@Example.com"],
        ["bob", "Bob@Example.com"],
        ["wide", "ann@\uFF25xample.com"],
        ["ann", "ann@example.com"]
      ] as const) yield* insert(id, email, email.trim().toLowerCase())
      // The upgrade runs 0024 first (later migrations follow it and are not this test's).
      expect((yield* Migrations.run).map(([, migration]) => migration)[0]).toBe("email_normalized")
      expect(yield* normalizedById).toEqual({
        kelvin: "\u212Aate@example.com", // no longer kate@example.com: a real kate can have her account
        elise: "Élise@example.com",
        bob: "bob@example.com",
        wide: "ann@\uFF45xample.com", // its new form is ann's: kept as it was
        ann: "ann@example.com"
      })
    }).pipe(Effect.provide(Layer.orDie(database()))))

describe("migration 0024_email_normalized", () => {
  upgrade("sqlite", freshSqlite)
  upgrade("postgres", freshPostgres)
})
