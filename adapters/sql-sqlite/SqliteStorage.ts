import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs"
import { dirname } from "node:path"
import type { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StorageError } from "../../src/ports/StorageError.js"
import * as WorkerSqlClient from "./worker/WorkerSqlClient.js"

export interface Options {
  /** Path of the database file (created 0600, with its parent directory 0700), or `:memory:`. */
  readonly filename: string
  /** Milliseconds a statement waits for another process's lock before failing (default 5000). */
  readonly busyTimeoutMs?: number
  /** Warn at start when others may read an existing file (default true). */
  readonly modeWarning?: boolean
}

/** The warning when others may read the database (`mode` is the file's permission bits). */
const warnWhenShared = (filename: string) => (mode: number | undefined) =>
  mode !== undefined && (mode & 0o077) !== 0
    ? Effect.logWarning(
        `SQLite database '${filename}' may be read by other users (mode ${mode.toString(8)}); it holds webhook secrets and the stream-token signing secret: chmod 600 it and its -wal and -shm files`
      )
    : Effect.void

/**
 * The file holds webhook secrets and the stream-token signing secret, so a file Flagport creates is
 * its owner's alone (0600), as are folders it creates for it (0700). SQLite gives the -wal and
 * -shm files the database file's mode. An existing file keeps the mode it has (an operator may
 * have chosen it), with a warning when others may read it (older versions created it 0644).
 */
const ensureFile = (filename: string, modeWarning: boolean) =>
  Effect.try({
    try: (): number | undefined => {
      if (filename === ":memory:" || filename === "") return undefined
      mkdirSync(dirname(filename), { recursive: true, mode: 0o700 })
      try {
        closeSync(openSync(filename, "wx", 0o600))
        return undefined
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
        return statSync(filename).mode & 0o777
      }
    },
    catch: (cause) => new StorageError({ message: `Cannot create SQLite database '${filename}'`, cause })
  }).pipe(Effect.tap((mode) => (modeWarning ? warnWhenShared(filename)(mode) : Effect.void)))

/**
 * Makes an existing database file, and its -wal and -shm files, its owner's alone (0600): for a
 * file about to receive every secret of a server (`flagport transfer`'s target), where the mode
 * an earlier version or another tool left cannot be what its operator wants. When that fails (the
 * file is another user's), the warning `serve` gives for such a file; the copy goes on.
 */
export const restrictToOwner = (filename: string): Effect.Effect<void> =>
  Effect.sync((): number | undefined => {
    if (filename === ":memory:" || filename === "") return undefined
    let shared: number | undefined
    for (const path of [filename, `${filename}-wal`, `${filename}-shm`]) {
      if (!existsSync(path)) continue
      try {
        chmodSync(path, 0o600)
      } catch {
        const mode = statSync(path, { throwIfNoEntry: false })?.mode
        if (mode !== undefined && (mode & 0o077) !== 0) shared ??= mode & 0o777
      }
    }
    return shared
  }).pipe(Effect.flatMap(warnWhenShared(filename)))

/**
 * A SqlClient over better-sqlite3 on worker threads (worker/WorkerSqlClient.ts), closed with the layer's
 * scope: the threads keep every statement and every commit's fsync off the event loop (see
 * docs/internals/decisions.md, "SQLite on worker threads"). The writer connection is opened with:
 * - WAL journal (readers never block the writer, nor the writer them);
 * - synchronous=FULL: WAL is fsynced at every commit, so an acknowledged write survives a crash
 *   of the process AND of the machine (NORMAL would only survive a process crash);
 * - foreign_keys=ON (SQLite leaves them off by default);
 * - busy_timeout for a second process (e.g. the CLI while the server runs).
 */
export const layer = (options: Options): Layer.Layer<SqlClient.SqlClient, StorageError> =>
  Layer.unwrapEffect(
    Effect.as(
      ensureFile(options.filename, options.modeWarning ?? true),
      WorkerSqlClient.layer({ filename: options.filename, busyTimeoutMs: options.busyTimeoutMs ?? 5000 }).pipe(
        Layer.mapError((cause) => new StorageError({ message: `Cannot open SQLite database '${options.filename}'`, cause }))
      )
    )
  )
