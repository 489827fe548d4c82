import type { ErrorInfo, ExecuteRequest, Reply, Request, WorkerData } from "./WorkerProtocol.js"

/** The few better-sqlite3 members the worker uses. */
interface Statement {
  readonly reader: boolean
  readonly readonly: boolean
  safeIntegers(on: boolean): Statement
  raw(on: boolean): Statement
  all(...params: Array<unknown>): Array<unknown>
  run(...params: Array<unknown>): unknown
}
interface Database {
  prepare(sql: string): Statement
  pragma(source: string): unknown
  close(): void
}
type DatabaseConstructor = new (filename: string, options: { readonly: boolean }) => Database

interface Port {
  on(event: "message", listener: (request: Request) => void): void
  postMessage(reply: Reply): void
  close(): void
}

/**
 * The body of the SQLite worker thread: it owns the better-sqlite3 connection and runs one
 * statement at a time, in arrival order, so the synchronous driver (and every commit's fsync)
 * blocks this thread and never the event loop.
 *
 * It is started from its source text (`String(workerBody)`, see SqliteWorker.ts), which is the
 * one form that runs the same under tsx, vitest, esbuild bundles and the ESM and CommonJS builds.
 * So it must be self-contained: no imported value, no helper from outside, only what `load`
 * (the worker's `require`) returns.
 */
export const workerBody = (load: (id: string) => unknown): void => {
  const threads = load("node:worker_threads") as { parentPort: Port; workerData: WorkerData }
  const port = threads.parentPort
  const data = threads.workerData
  const Sqlite = load(data.driver) as DatabaseConstructor

  const describe = (cause: unknown): ErrorInfo => {
    const error = cause as { name?: unknown; message?: unknown; code?: unknown }
    return {
      name: typeof error?.name === "string" ? error.name : "Error",
      message: typeof error?.message === "string" ? error.message : String(cause),
      ...(typeof error?.code === "string" ? { code: error.code } : {})
    }
  }

  let db: Database
  try {
    db = new Sqlite(data.filename, { readonly: data.role === "reader" })
    // WAL is a property of the file: the writer sets it (and opens first). The other settings
    // belong to each connection; a reader gets them too, so that whichever connection answers a
    // `PRAGMA name` query reports the same.
    if (data.role === "writer") db.pragma("journal_mode = WAL")
    db.pragma(`busy_timeout = ${data.busyTimeoutMs}`)
    // The WAL fsynced at every commit: an acknowledged write survives a crash of the process AND
    // of the machine (NORMAL would only survive the process's).
    db.pragma("synchronous = FULL")
    db.pragma("foreign_keys = ON")
  } catch (cause) {
    port.postMessage({ _tag: "OpenFailed", error: describe(cause) })
    port.close()
    return
  }

  // Map iteration follows insertion order: re-inserting on use makes the first key the least recently used.
  const cache = new Map<string, Statement>()
  const prepared = (sql: string): Statement => {
    const hit = cache.get(sql)
    if (hit !== undefined) {
      cache.delete(sql)
      cache.set(sql, hit)
      return hit
    }
    const statement = db.prepare(sql)
    cache.set(sql, statement)
    if (cache.size > data.prepareCacheSize) cache.delete(cache.keys().next().value as string)
    return statement
  }

  // Structured clone turns a Buffer into a plain Uint8Array; better-sqlite3 binds Buffers as BLOBs.
  const bindable = (params: ReadonlyArray<unknown>): Array<unknown> =>
    params.map((value) =>
      value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value
    )

  const declined = Symbol("declined")

  const execute = (request: ExecuteRequest): unknown => {
    const statement = request.mode === "unprepared" ? db.prepare(request.sql) : prepared(request.sql)
    if (request.onlyReadOnly && !(statement.readonly && statement.reader)) return declined
    const params = bindable(request.params)
    statement.safeIntegers(request.safeIntegers)
    if (!statement.reader) {
      const result = statement.run(...params)
      return request.mode === "raw" ? result : []
    }
    if (request.mode !== "values") return statement.all(...params)
    statement.raw(true)
    try {
      return statement.all(...params)
    } finally {
      statement.raw(false)
    }
  }

  port.on("message", (request) => {
    if (request._tag === "Close") {
      cache.clear()
      try {
        db.close()
      } finally {
        port.close()
      }
      return
    }
    try {
      const result = execute(request)
      port.postMessage(result === declined ? { _tag: "Declined", id: request.id } : { _tag: "Result", id: request.id, result })
    } catch (cause) {
      port.postMessage({ _tag: "Failure", id: request.id, error: describe(cause) })
    }
  })
  port.postMessage({ _tag: "Opened" })
}
