import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StorageHealth } from "../../src/ports/StorageHealth.js"
import { orFail } from "./SqlSupport.js"

/** `SELECT 1` through the pool / connection. */
export const layer = Layer.effect(
  StorageHealth,
  Effect.map(SqlClient.SqlClient, (sql) =>
    StorageHealth.of({
      check: Effect.asVoid(orFail(sql`SELECT 1`)),
      backend: sql.onDialectOrElse({ pg: () => "postgres", sqlite: () => "sqlite", orElse: () => "sql" })
    })
  )
)
