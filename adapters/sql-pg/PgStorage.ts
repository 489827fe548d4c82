import type { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import pg from "pg"
import { PoolUse } from "../metrics/PoolUse.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { redactUrl } from "./RedactUrl.js"

export interface Options {
  /** `postgres://user:password@host:port/database?...` */
  readonly url: string
  /** Pool size (default 10). */
  readonly maxConnections?: number
}

const CONNECT_TIMEOUT = Duration.seconds(10)

/**
 * The `pg` pool, built here rather than inside `@effect/sql-pg` so that its use can be measured
 * (PoolUse). The settings are those `PgClient.layer` gave it (`connectionString`, `max`, a 10 s
 * connect timeout, `application_name`), and so is the life: a first `SELECT 1` proves the server
 * answers (within the connect timeout), and closing the scope ends the pool.
 */
const acquirePool = (options: Options) =>
  Effect.gen(function* () {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: Duration.toMillis(CONNECT_TIMEOUT),
      application_name: "flagport"
    })
    // An idle client's connection dropping emits here; unheard, node would end the process. The
    // next query through that client fails with the cause instead.
    pool.on("error", () => {})
    yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }),
      () => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
    ).pipe(
      Effect.timeoutFail({
        duration: CONNECT_TIMEOUT,
        onTimeout: () => new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
      })
    )
    return pool
  })

const poolUse = (pool: pg.Pool) =>
  PoolUse.of({
    measure: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max })
  })

/**
 * A pooled SqlClient (and PgClient) over node-postgres, closed with the layer's scope, and the
 * pool's use (PoolUse, for /metrics). Fails at build time when the server cannot be reached, with
 * the URL (password redacted) in the message.
 */
export const layer = (options: Options): Layer.Layer<SqlClient.SqlClient | PgClient.PgClient | PoolUse, StorageError> =>
  Layer.unwrapScoped(
    Effect.map(acquirePool(options), (pool) =>
      Layer.merge(PgClient.layerFromPool({ acquire: Effect.succeed(pool) }), Layer.succeed(PoolUse, poolUse(pool)))
    )
  ).pipe(
    Layer.mapError(
      (cause) => new StorageError({ message: `Cannot connect to PostgreSQL at ${redactUrl(options.url)}: ${cause.message}`, cause })
    )
  )
