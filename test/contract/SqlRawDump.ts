import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { RawDump } from "./Backend.js"

/** Every row of every flagport_ table, as JSON: what is really on disk. */
export const sqlRawDump = Layer.effect(
  RawDump,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Effect.gen(function* () {
      const tables = yield* sql.onDialectOrElse({
        pg: () => sql<{ readonly name: string }>`SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'flagport_%'`,
        orElse: () => sql<{ readonly name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'flagport_%'`
      })
      const dump: Record<string, unknown> = {}
      for (const { name } of tables) dump[name] = yield* sql.unsafe(`SELECT * FROM ${name}`)
      return JSON.stringify(dump)
    })
  )
)
