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
  readonly inTransaction: boolean
  prepare(sql: string): Statement
  exec(sql: string): void
  pragma(source: string): unknown
  close(): void
}
type DatabaseConstructor = new (filename: string, options: { readonly: boolean }) => Database

interface Port {
  on(event: "message", listener: (request: Request) => void): void
  close(): void
}

/**
 * The body of a SQLite worker thread: it owns one better-sqlite3 connection and runs one request
 * at a time, in arrival order, so the synchronous driver (and every commit's fsync) blocks this
 * thread and never the event loop.
 *
 * The writer commits in groups. An application transaction (Begin .. Commit) is a savepoint in a
 * real transaction that the transactions of the next `groupWindowMs` share; Commit releases the
 * savepoint and is answered at once (so the next transaction can start), and the group's one real
 * COMMIT, with its fsync (synchronous=FULL), is followed by `Durable` for all of them: only then
 * does the application acknowledge them. Rollback undoes only its own savepoint. If the real COMMIT
 * fails, the whole group is `Lost` (none of it was acknowledged).
 *
 * It is started from its source text (`String(workerBody)`, see SqliteWorker.ts), which is the
 * one form that runs the same under tsx, vitest, esbuild bundles and the ESM and CommonJS builds.
 * So it must be self-contained: no imported value, no helper from outside, only what `load`
 * (the worker's `require`) returns.
 */
export const workerBody = (load: (id: string) => unknown): void => {
  const threads = load("node:worker_threads") as { parentPort: Port; workerData: WorkerData }
  const data = threads.workerData
  const Sqlite = load(data.driver) as DatabaseConstructor

  const reply = (message: Reply) => {
    data.replies.postMessage(message)
    Atomics.add(data.signal, 0, 1)
    Atomics.notify(data.signal, 0)
  }

  const describe = (cause: unknown): ErrorInfo => {
    const error = cause as { name?: unknown; message?: unknown; code?: unknown }
    return {
      name: typeof error?.name === "string" ? error.name : "Error",
      message: typeof error?.message === "string" ? error.message : String(cause),
      ...(typeof error?.code === "string" ? { code: error.code } : {})
    }
  }

  const stop = () => {
    threads.parentPort.close()
    data.replies.close()
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
    reply({ _tag: "OpenFailed", error: describe(cause) })
    stop()
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

  // ---- Group commit (writer) ----
  const SAVEPOINT = "flagport_transaction"
  /** The real transaction shared by a group, while one is open. */
  let group: { readonly ids: Array<number>; readonly startedAt: number } | undefined
  /** An application transaction is between Begin and Commit/Rollback. */
  let inTransaction = false
  let flushTimer: ReturnType<typeof setTimeout> | undefined

  /** Commits the group's real transaction (unless one of its transactions is still open). */
  const flush = () => {
    if (group === undefined || inTransaction) return
    const ids = group.ids
    group = undefined
    if (flushTimer !== undefined) clearTimeout(flushTimer)
    flushTimer = undefined
    try {
      // SQLite rolls a transaction back by itself on some errors (disk full, I/O error).
      if (!db.inTransaction) throw new Error("SQLite rolled the transaction back after an error")
      db.exec("COMMIT")
      if (ids.length > 0) reply({ _tag: "Durable", ids })
    } catch (cause) {
      if (db.inTransaction) db.exec("ROLLBACK")
      if (ids.length > 0) reply({ _tag: "Lost", ids, error: describe(cause) })
    }
  }

  /** After a transaction ends: commit now if the group's window is over, else when it is. */
  const flushWhenDue = () => {
    if (group === undefined) return
    const remaining = group.startedAt + data.groupWindowMs - Date.now()
    if (remaining <= 0) flush()
    else
      flushTimer ??= setTimeout(() => {
        flushTimer = undefined
        flush()
      }, remaining)
  }

  const transaction = (request: { readonly _tag: "Begin" | "Commit" | "Rollback"; readonly id: number }) => {
    switch (request._tag) {
      case "Begin": {
        if (group !== undefined && (!db.inTransaction || Date.now() >= group.startedAt + data.groupWindowMs)) flush()
        if (group === undefined) {
          // IMMEDIATE: the write lock now, waited for (busy_timeout) while another process holds
          // it. A deferred BEGIN holds only a read snapshot, and its first write after another
          // process's commit fails at once with "database is locked" (SQLITE_BUSY_SNAPSHOT).
          db.exec("BEGIN IMMEDIATE")
          group = { ids: [], startedAt: Date.now() }
        }
        db.exec(`SAVEPOINT ${SAVEPOINT}`)
        inTransaction = true
        return
      }
      case "Commit": {
        inTransaction = false
        db.exec(`RELEASE ${SAVEPOINT}`)
        group?.ids.push(request.id)
        return
      }
      case "Rollback": {
        inTransaction = false
        if (db.inTransaction) {
          db.exec(`ROLLBACK TO ${SAVEPOINT}`)
          db.exec(`RELEASE ${SAVEPOINT}`)
        }
        return
      }
    }
  }

  threads.parentPort.on("message", (request) => {
    if (request._tag === "Close") {
      inTransaction = false
      if (db.inTransaction && group !== undefined) {
        try {
          db.exec(`ROLLBACK TO ${SAVEPOINT}`)
          db.exec(`RELEASE ${SAVEPOINT}`)
        } catch {
          // no open savepoint: nothing of an unfinished transaction to undo
        }
      }
      flush()
      cache.clear()
      try {
        db.close()
      } finally {
        stop()
      }
      return
    }
    try {
      if (request._tag === "Execute") {
        // A statement outside an application transaction runs on its own: after the group.
        if (!inTransaction) flush()
        const result = execute(request)
        reply(result === declined ? { _tag: "Declined", id: request.id } : { _tag: "Result", id: request.id, result })
      } else {
        transaction(request)
        reply({ _tag: "Result", id: request.id, result: [] })
      }
    } catch (cause) {
      reply({ _tag: "Failure", id: request.id, error: describe(cause) })
    }
    if (request._tag === "Commit" || request._tag === "Rollback") flushWhenDue()
  })
  reply({ _tag: "Opened" })
}
