import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Scope } from "effect"
import { workerBody } from "./WorkerBody.js"
import type { ErrorInfo, ExecuteRequest, Reply, Request, WorkerData } from "./WorkerProtocol.js"

/** A better-sqlite3 connection that lives on its own thread; statements run there in call order. */
export interface SqliteWorker {
  /** The statement's result, or `Declined` when `onlyReadOnly` was asked and it is not a read-only query. */
  readonly execute: (statement: Statement) => Effect.Effect<unknown, SqlError>
}

export type Statement = Omit<ExecuteRequest, "_tag" | "id">

/** Answered by a worker asked to run only read-only queries, for any other statement. */
export const Declined: unique symbol = Symbol.for("flagport/SqliteWorker/Declined")

export interface Options {
  readonly filename: string
  readonly role: WorkerData["role"]
  readonly busyTimeoutMs: number
  readonly prepareCacheSize?: number
}

/** How long closing waits for the worker to close the database before it is terminated. */
const CLOSE_TIMEOUT_MS = 10_000

/**
 * better-sqlite3's absolute path, from this module's location: the worker runs source text, which
 * has no location of its own to resolve a package from. `__filename` exists in the CommonJS build
 * (and under vitest); everywhere else this is an ES module.
 */
const resolveDriver = (): string =>
  (typeof __filename === "string" ? createRequire(__filename) : createRequire(import.meta.url)).resolve("better-sqlite3")

/**
 * What a transpiler may have put into `workerBody`'s text that only exists in the module it came
 * from: esbuild with `keepNames` (as tsx runs) wraps named functions in `__name(fn, "name")`.
 */
const TRANSPILER_HELPERS = "var __name = (target) => target;"

/** A driver error as it came over the thread boundary, `code` kept (unique violations are found by it). */
const revive = (info: ErrorInfo): Error => Object.assign(new Error(info.message), { name: info.name, ...(info.code === undefined ? {} : { code: info.code }) })

/**
 * Starts the worker and opens the database in it; fails with a SqlError when it cannot be opened.
 * Closing the scope closes the database (the WAL is checkpointed) and ends the thread.
 *
 * The thread keeps the process alive only while a statement (or the close) is in flight, like any
 * pending I/O; an idle worker never holds the process open. If the thread dies, every statement in
 * flight and every later one fails with a SqlError whose cause is the thread's error.
 */
export const make = (options: Options): Effect.Effect<SqliteWorker, SqlError, Scope.Scope> =>
  Effect.gen(function* () {
    const workerData: WorkerData = {
      driver: resolveDriver(),
      filename: options.filename,
      role: options.role,
      busyTimeoutMs: Math.max(0, Math.floor(options.busyTimeoutMs)),
      prepareCacheSize: options.prepareCacheSize ?? 200
    }
    const worker = new Worker(`${TRANSPILER_HELPERS}\n(${String(workerBody)})(require)`, { eval: true, workerData })
    const pending = new Map<number, (reply: Reply) => void>()
    let nextId = 0
    let failure: SqlError | undefined
    let closing = false

    const settleAll = (error: SqlError) => {
      failure ??= error
      const waiting = [...pending.values()]
      pending.clear()
      for (const resume of waiting) resume({ _tag: "Failure", id: -1, error: { name: "SqlError", message: error.message } })
    }
    const opened = new Promise<void>((resolve, reject) => {
      worker.on("message", (reply: Reply) => {
        if (reply._tag === "Opened") resolve()
        else if (reply._tag === "OpenFailed") reject(revive(reply.error))
        else {
          const resume = pending.get(reply.id)
          pending.delete(reply.id)
          if (pending.size === 0 && !closing) worker.unref()
          resume?.(reply)
        }
      })
      worker.on("error", (cause) => {
        reject(cause)
        settleAll(new SqlError({ cause, message: "The SQLite worker thread failed" }))
      })
      worker.on("exit", (code) => {
        reject(new Error(`The SQLite worker thread exited (code ${code}) before opening the database`))
        settleAll(new SqlError({ cause: new Error(`exit code ${code}`), message: "The SQLite worker thread has stopped" }))
      })
    })

    yield* Effect.tryPromise({
      try: () => opened,
      catch: (cause) => new SqlError({ cause, message: `Failed to open SQLite database '${options.filename}' (${options.role})` })
    }).pipe(Effect.onError(() => Effect.promise(() => worker.terminate())))
    worker.unref()

    yield* Effect.addFinalizer(() =>
      Effect.async<void>((resume) => {
        closing = true
        worker.ref()
        const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS)
        worker.once("exit", () => {
          clearTimeout(timer)
          resume(Effect.void)
        })
        if (failure === undefined) worker.postMessage({ _tag: "Close" } satisfies Request)
        else void worker.terminate()
      })
    )

    return {
      execute: (statement) =>
        Effect.async<unknown, SqlError>((resume) => {
          if (failure !== undefined) return resume(Effect.fail(failure))
          const id = nextId++
          pending.set(id, (reply) => {
            if (reply._tag === "Result") resume(Effect.succeed(reply.result))
            else if (reply._tag === "Declined") resume(Effect.succeed(Declined))
            else if (reply._tag === "Failure") {
              const cause = reply.id === -1 && failure !== undefined ? failure.cause : revive(reply.error)
              resume(Effect.fail(new SqlError({ cause, message: "Failed to execute statement" })))
            }
          })
          if (pending.size === 1) worker.ref()
          try {
            worker.postMessage({ ...statement, _tag: "Execute", id } satisfies Request)
          } catch (cause) {
            // A parameter that cannot cross threads (structured clone), e.g. a function.
            pending.delete(id)
            if (pending.size === 0) worker.unref()
            resume(Effect.fail(new SqlError({ cause, message: "Failed to send the statement to the SQLite worker" })))
          }
        })
    }
  })
