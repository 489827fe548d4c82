import type { MessagePort } from "node:worker_threads"

/**
 * The messages between the event-loop thread and a SQLite worker thread (structured clone).
 * Types only: the worker's body (WorkerBody.ts) is shipped as source text and imports nothing.
 */

/** How the worker runs a statement, after @effect/sql's `Connection` methods. */
export type ExecuteMode =
  /** Prepared (cached): the rows of a reader, `[]` for a writer. */
  | "rows"
  /** Prepared (cached): the rows of a reader, `{ changes, lastInsertRowid }` for a writer. */
  | "raw"
  /** Prepared (cached): the rows of a reader as arrays of values, `[]` for a writer. */
  | "values"
  /** Prepared for this call only (DDL, savepoints): like "rows". */
  | "unprepared"

export interface ExecuteRequest {
  readonly _tag: "Execute"
  readonly id: number
  readonly sql: string
  readonly params: ReadonlyArray<unknown>
  readonly mode: ExecuteMode
  readonly safeIntegers: boolean
  /** Run it only if it is a read-only query returning rows; otherwise answer `Declined`. */
  readonly onlyReadOnly: boolean
}

/**
 * A transaction of the application. The writer runs it as a savepoint inside a real transaction
 * that several of them share (group commit): `Commit` is answered once the savepoint is released,
 * and `Durable` follows when the real COMMIT (and its fsync) has covered it.
 */
export interface TransactionRequest {
  readonly _tag: "Begin" | "Commit" | "Rollback"
  readonly id: number
}

/** Close the database (checkpointing the WAL) and let the thread end. */
export interface CloseRequest {
  readonly _tag: "Close"
}

export type Request = ExecuteRequest | TransactionRequest | CloseRequest

/** What survives of a driver error: `code` (e.g. SQLITE_CONSTRAINT_UNIQUE) is what callers test. */
export interface ErrorInfo {
  readonly name: string
  readonly message: string
  readonly code?: string
}

export type Reply =
  | { readonly _tag: "Opened" }
  | { readonly _tag: "OpenFailed"; readonly error: ErrorInfo }
  | { readonly _tag: "Result"; readonly id: number; readonly result: unknown }
  | { readonly _tag: "Failure"; readonly id: number; readonly error: ErrorInfo }
  | { readonly _tag: "Declined"; readonly id: number }
  /** The commits `ids` are on disk (the group's COMMIT returned). */
  | { readonly _tag: "Durable"; readonly ids: ReadonlyArray<number> }
  /** The group's COMMIT failed: none of the commits `ids` happened. */
  | { readonly _tag: "Lost"; readonly ids: ReadonlyArray<number>; readonly error: ErrorInfo }

/** Given to the worker at start. */
export interface WorkerData {
  /** Absolute path of the better-sqlite3 package, resolved by the parent (the worker has no module context). */
  readonly driver: string
  readonly filename: string
  /**
   * The writer opens the file read-write, sets WAL, synchronous=FULL and foreign_keys=ON; a reader
   * opens it read-only (WAL lets it read while the writer writes).
   */
  readonly role: "writer" | "reader"
  /** Milliseconds a statement waits for another connection's lock before failing. */
  readonly busyTimeoutMs: number
  /** Prepared statements kept per SQL text, least recently used dropped first. */
  readonly prepareCacheSize: number
  /** Where replies go: a port of its own, which the parent can also read synchronously. */
  readonly replies: MessagePort
  /** Incremented and notified after every reply, for the parent's `Atomics.wait`. */
  readonly signal: Int32Array
  /** A group's real COMMIT waits at most this long for more transactions to join it. */
  readonly groupWindowMs: number
}
