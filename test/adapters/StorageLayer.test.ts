import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Exit } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { StorageHealth } from "../../src/ports/StorageHealth.js"
import { freshSqliteFile } from "../fixtures/databases.js"

describe("DATABASE_URL", () => {
  it.each([
    ["sqlite:./data/flagport.db", { _tag: "Sqlite", filename: "./data/flagport.db" }],
    ["sqlite:/var/lib/flagport/flags.db", { _tag: "Sqlite", filename: "/var/lib/flagport/flags.db" }],
    ["sqlite:///var/lib/flagport.db", { _tag: "Sqlite", filename: "/var/lib/flagport.db" }],
    ["sqlite::memory:", { _tag: "Sqlite", filename: ":memory:" }],
    ["postgres://u:p@db:5432/flags", { _tag: "Postgres", url: "postgres://u:p@db:5432/flags" }],
    ["postgresql://db/flags?sslmode=require", { _tag: "Postgres", url: "postgresql://db/flags?sslmode=require" }],
    ["memory:", { _tag: "Memory" }]
  ])("accepts %s", (url, target) => {
    expect(StorageLayer.parseDatabaseUrl(url)).toEqual(Either.right(target))
  })

  it.each(["", "sqlite:", "mysql://db/flags", "postgres://", "postgres://:5432/x", "./data/flagport.db", "postgres://h:port/x"])(
    "refuses %j with a message naming the accepted forms",
    (url) => {
      const result = StorageLayer.parseDatabaseUrl(url)
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left.message).toContain("Invalid DATABASE_URL")
        expect(result.left.message).toContain("sqlite:PATH")
        expect(result.left.message).toContain("postgres://")
      }
    }
  )

  it.effect("a malformed URL fails the layer at startup", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(Effect.provide(Projects, StorageLayer.fromDatabaseUrl("mysql://nope")))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(exit)).toContain("InvalidDatabaseUrl")
    }))

  it.effect("an unreachable PostgreSQL fails at startup with the password redacted", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.provide(Projects, StorageLayer.fromDatabaseUrl("postgres://user:secret-pw@127.0.0.1:1/flags"))
      )
      expect(error._tag).toBe("StorageError")
      expect(error.message).toContain("127.0.0.1")
      expect(error.message).not.toContain("secret-pw")
    }), 30_000)

  it.scoped("sqlite: creates the parent directory, migrates, reopens with the data (migrations are idempotent)", () =>
    Effect.gen(function* () {
      const file = yield* freshSqliteFile
      const nested = join(file, "..", "deeper", "still", "flagport.db")
      const layer = StorageLayer.fromDatabaseUrl(`sqlite:${nested}`)
      yield* Effect.gen(function* () {
        yield* (yield* Projects).create({ id: "kept", name: "Kept" })
        const health = yield* StorageHealth
        expect(health.backend).toBe("sqlite")
        yield* health.check
      }).pipe(Effect.provide(layer))
      expect(existsSync(nested)).toBe(true)
      // A second start on the same file: migrations find nothing to do, the data is there.
      const again = yield* Effect.provide(
        Effect.flatMap(Projects, (p) => p.get("kept")),
        layer
      )
      expect(again.name).toBe("Kept")
    }))

  it.effect("memory: works and persists nothing", () =>
    Effect.gen(function* () {
      yield* Effect.provide(
        Effect.flatMap(Projects, (p) => p.create({ id: "temp", name: "Temp" })),
        StorageLayer.fromDatabaseUrl("memory:")
      )
      const list = yield* Effect.provide(
        Effect.flatMap(Projects, (p) => p.list()),
        StorageLayer.fromDatabaseUrl("memory:")
      )
      expect(list).toEqual([])
    }))
})
