import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Migrations from "../../adapters/sql/Migrations.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { freshSqlStorage } from "../fixtures/databases.js"

/** What the SQL adapter really leaves in the tables, per dialect. */
for (const backend of ["sqlite", "postgres"] as const) {
  describe(`${backend} schema`, () => {
    layer(freshSqlStorage(backend), { excludeTestServices: true })((it) => {
      it.effect("migrations are recorded in flagport_migrations and re-running them is a no-op", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ readonly migration_id: number; readonly name: string }>`
            SELECT migration_id, name FROM flagport_migrations ORDER BY migration_id`
          expect(rows.map((r) => `${r.migration_id}_${r.name}`)).toEqual(
            Object.keys(Migrations.migrations).map((key) => key.replace(/^0+/, ""))
          )
          expect(yield* Migrations.run).toEqual([])
          expect(yield* Migrations.run).toEqual([])
        }))

      it.effect("deleting a flag deletes its config rows", () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* (yield* Projects).create({ id: "schema", name: "Schema" })
          yield* (yield* Environments).create("schema", { key: "a", name: "A" })
          yield* (yield* Environments).create("schema", { key: "b", name: "B" })
          const flag = yield* (yield* Flags).create("schema", {
            key: "gone",
            type: "boolean",
            variations: [
              { key: "on", value: true },
              { key: "off", value: false }
            ]
          })
          const count = () =>
            Effect.map(
              sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM flagport_flag_configs WHERE flag_id = ${flag.id}`,
              (rows) => Number(rows[0]!.n)
            )
          expect(yield* count()).toBe(2)
          yield* (yield* Flags).remove("schema", "gone")
          expect(yield* count()).toBe(0)
          const flags = yield* sql`SELECT id FROM flagport_flags WHERE id = ${flag.id}`
          expect(flags).toEqual([])
        }))

      if (backend === "sqlite") {
        it.effect("connection pragmas: WAL, synchronous=FULL, foreign keys on, a busy timeout", () =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const one = (pragma: string) => Effect.map(sql.unsafe(`PRAGMA ${pragma}`), (rows) => Object.values(rows[0] as object)[0])
            expect(yield* one("journal_mode")).toBe("wal")
            expect(yield* one("synchronous")).toBe(2)
            expect(yield* one("foreign_keys")).toBe(1)
            expect(yield* one("busy_timeout")).toBe(5000)
          }))
      }
    })
  })
}
