import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { StorageError } from "../../src/ports/StorageError.js"
import { orFail } from "../sql/SqlSupport.js"
import * as WorkerSqlClient from "./WorkerSqlClient.js"

export interface Options {
  /** Path of the database file (created with its parent directory), or `:memory:`. */
  readonly filename: string
  /** Milliseconds a statement waits for another process's lock before failing (default 5000). */
  readonly busyTimeoutMs?: number
}

/**
 * Connection settings, applied once on the single connection:
 * - WAL journal (readers never block the writer; the worker sets it when it opens the file);
 * - synchronous=FULL: WAL is fsynced at every commit, so an acknowledged write survives a crash
 *   of the process AND of the machine (NORMAL would only survive a process crash);
 * - foreign_keys=ON (SQLite leaves them off by default);
 * - busy_timeout for a second process (e.g. the CLI while the server runs).
 */
const pragmas = (busyTimeoutMs: number) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* orFail(sql.unsafe(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`))
      yield* orFail(sql`PRAGMA synchronous = FULL`)
      yield* orFail(sql`PRAGMA foreign_keys = ON`)
    })
  )

const ensureDirectory = (filename: string) =>
  Effect.try({
    try: () => {
      if (filename !== ":memory:" && filename !== "") mkdirSync(dirname(filename), { recursive: true })
    },
    catch: (cause) => new StorageError({ message: `Cannot create the directory of SQLite database '${filename}'`, cause })
  })

/**
 * A SqlClient over better-sqlite3 running on a worker thread (WorkerSqlClient.ts), closed with the
 * layer's scope. The thread is what keeps a commit's fsync off the event loop: see
 * docs/decisions.md, "SQLite on a worker thread".
 */
export const layer = (options: Options): Layer.Layer<SqlClient.SqlClient, StorageError> =>
  Layer.unwrapEffect(
    Effect.as(
      ensureDirectory(options.filename),
      pragmas(options.busyTimeoutMs ?? 5000).pipe(
        Layer.provideMerge(WorkerSqlClient.layer({ filename: options.filename })),
        Layer.mapError((cause) => new StorageError({ message: `Cannot open SQLite database '${options.filename}'`, cause }))
      )
    )
  )
