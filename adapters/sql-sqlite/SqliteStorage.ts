import { mkdirSync } from "node:fs"
import { dirname } from "node:path"
import type { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { StorageError } from "../../src/ports/StorageError.js"
import * as WorkerSqlClient from "./WorkerSqlClient.js"

export interface Options {
  /** Path of the database file (created with its parent directory), or `:memory:`. */
  readonly filename: string
  /** Milliseconds a statement waits for another process's lock before failing (default 5000). */
  readonly busyTimeoutMs?: number
}

const ensureDirectory = (filename: string) =>
  Effect.try({
    try: () => {
      if (filename !== ":memory:" && filename !== "") mkdirSync(dirname(filename), { recursive: true })
    },
    catch: (cause) => new StorageError({ message: `Cannot create the directory of SQLite database '${filename}'`, cause })
  })

/**
 * A SqlClient over better-sqlite3 on worker threads (WorkerSqlClient.ts), closed with the layer's
 * scope: the threads keep every statement and every commit's fsync off the event loop (see
 * docs/decisions.md, "SQLite on worker threads"). The writer connection is opened with:
 * - WAL journal (readers never block the writer, nor the writer them);
 * - synchronous=FULL: WAL is fsynced at every commit, so an acknowledged write survives a crash
 *   of the process AND of the machine (NORMAL would only survive a process crash);
 * - foreign_keys=ON (SQLite leaves them off by default);
 * - busy_timeout for a second process (e.g. the CLI while the server runs).
 */
export const layer = (options: Options): Layer.Layer<SqlClient.SqlClient, StorageError> =>
  Layer.unwrapEffect(
    Effect.as(
      ensureDirectory(options.filename),
      WorkerSqlClient.layer({ filename: options.filename, busyTimeoutMs: options.busyTimeoutMs ?? 5000 }).pipe(
        Layer.mapError((cause) => new StorageError({ message: `Cannot open SQLite database '${options.filename}'`, cause }))
      )
    )
  )
