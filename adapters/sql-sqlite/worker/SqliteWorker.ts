import { createRequire } from "node:module"
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as Instruments from "../../metrics/Instruments.js"
import { workerBody } from "./WorkerBody.js"
import type { ErrorInfo, ExecuteRequest, Reply, Request, WorkerData } from "./WorkerProtocol.js"

export type Statement = Omit<ExecuteRequest, "_tag" | "id">

/** Answered by a worker asked to run only read-only queries, for any other statement. */
export const Declined: unique symbol = Symbol.for("flagport/SqliteWorker/Declined")

/** A better-sqlite3 connection that lives on its own thread; requests run there in call order. */
export interface SqliteWorker {
  /** The statement's result, or `Declined`. `waitMs`: see `call`. */
  readonly execute: (statement: Statement, waitMs: number) => Effect.Effect<unknown, SqlError>
  /** Begins or rolls back an application transaction (writer only; see WorkerBody.ts). */
  readonly transaction: (tag: "Begin" | "Rollback", waitMs: number) => Effect.Effect<void, SqlError>
  /**
   * Commits an application transaction: succeeds once the worker has applied it (the next
   * transaction may start), with the wait for its durability (the group's COMMIT and fsync).
   */
  readonly commit: (waitMs: number) => Effect.Effect<Effect.Effect<void, SqlError>, SqlError>
}

export interface Options {
  readonly filename: string
  readonly role: WorkerData["role"]
  readonly busyTimeoutMs: number
  readonly prepareCacheSize?: number
  /** See WorkerData.groupWindowMs (default 5). */
  readonly groupWindowMs?: number
}

/**
 * Waits on the spot (see `call`) add up to at most SYNC_WAIT_BUDGET_MS in any SYNC_WAIT_WINDOW_MS,
 * over all workers (a tenth of the event loop's time); past it, answers come as messages, so a
 * stream of writes cannot take the event loop from the other requests. A budget per window rather
 * than per turn: under load a turn is short and frequent, and ten milliseconds of every turn let
 * writes block the loop a fifth of the time (bench/LOG.md, "SQLite under mixed load").
 * Writes slow down instead, which is the trade a flag server wants: evaluations first.
 */
const SYNC_WAIT_BUDGET_MS = 10
const SYNC_WAIT_WINDOW_MS = 100
const syncWait = { spent: 0, windowStartedAt: Number.NEGATIVE_INFINITY }
const syncWaitLeft = (now: number): number => {
  if (now - syncWait.windowStartedAt >= SYNC_WAIT_WINDOW_MS) {
    syncWait.windowStartedAt = now
    syncWait.spent = 0
  }
  return SYNC_WAIT_BUDGET_MS - syncWait.spent
}

/** How long closing waits for the worker to close the database before it is terminated. */
const CLOSE_TIMEOUT_MS = 10_000

/**
 * better-sqlite3's absolute path, from this module's location: the worker runs source text, which
 * has no location of its own to resolve a package from. `__filename` exists in the CommonJS build
 * (and under vitest); everywhere else this is an ES module. better-sqlite3 is a dependency of
 * ours (declared in package.json, beside @effect/sql-sqlite-node that also uses it), so it resolves
 * from here.
 */
const resolveDriver = (): string =>
  (typeof __filename === "string" ? createRequire(__filename) : createRequire(import.meta.url)).resolve("better-sqlite3")

/**
 * What a transpiler may have put into `workerBody`'s text that only exists in the module it came
 * from: esbuild with `keepNames` (as tsx runs) wraps named functions in `__name(fn, "name")`.
 */
const TRANSPILER_HELPERS = "var __name = (target) => target;"

/** A driver error as it came over the thread boundary, `code` kept (unique violations are found by it). */
const revive = (info: ErrorInfo): Error =>
  Object.assign(new Error(info.message), { name: info.name, ...(info.code === undefined ? {} : { code: info.code }) })

type Settle = (outcome: { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: SqlError }) => void

/**
 * Starts the worker and opens the database in it; fails with a SqlError when it cannot be opened.
 * Closing the scope closes the database (the WAL is checkpointed) and ends the thread.
 *
 * The thread keeps the process alive only while a request (or the close) is in flight, like any
 * pending I/O; an idle worker never holds the process open. If the thread dies, every request in
 * flight and every later one fails with a SqlError whose cause is the thread's error.
 */
export const make = (options: Options): Effect.Effect<SqliteWorker, SqlError, Scope.Scope> =>
  Effect.gen(function* () {
    const channel = new MessageChannel()
    const signal = new Int32Array(new SharedArrayBuffer(4))
    const workerData: WorkerData = {
      driver: resolveDriver(),
      filename: options.filename,
      role: options.role,
      busyTimeoutMs: Math.max(0, Math.floor(options.busyTimeoutMs)),
      prepareCacheSize: options.prepareCacheSize ?? 200,
      replies: channel.port2,
      signal,
      groupWindowMs: options.groupWindowMs ?? 5
    }
    const worker = new Worker(`${TRANSPILER_HELPERS}\n(${String(workerBody)})(require)`, {
      eval: true,
      workerData,
      transferList: [channel.port2]
    })
    const replies = channel.port1
    /** Requests waiting for their answer, and commits waiting for durability. */
    const pending = new Map<number, Settle>()
    const durable = new Map<number, Settle>()
    let nextId = 0
    let failure: SqlError | undefined
    let closing = false
    let opened: { readonly ok: true } | { readonly ok: false; readonly error: unknown } | undefined
    let onOpened: (() => void) | undefined

    // Referenced (keeping the process alive) exactly while something is awaited from the thread.
    let referenced: boolean | undefined
    const updateRef = () => {
      // Called whenever either map changes: the writer's queue as /metrics shows it.
      Instruments.sqliteWriterQueue.unsafeUpdate(pending.size + durable.size, [])
      const busy = closing || pending.size > 0 || durable.size > 0
      if (busy === referenced) return
      referenced = busy
      if (busy) {
        worker.ref()
        replies.ref()
      } else {
        worker.unref()
        replies.unref()
      }
    }

    const failAll = (error: SqlError) => {
      failure ??= error
      const waiting = [...pending.values(), ...durable.values()]
      pending.clear()
      durable.clear()
      for (const settle of waiting) settle({ ok: false, error: failure })
      updateRef()
    }

    const dispatch = (reply: Reply) => {
      switch (reply._tag) {
        case "Opened":
        case "OpenFailed":
          opened = reply._tag === "Opened" ? { ok: true } : { ok: false, error: revive(reply.error) }
          onOpened?.()
          return
        case "Durable":
        case "Lost":
          for (const id of reply.ids) {
            const settle = durable.get(id)
            durable.delete(id)
            if (reply._tag === "Durable") settle?.({ ok: true, value: undefined })
            else settle?.({ ok: false, error: new SqlError({ cause: revive(reply.error), message: "Failed to commit the transaction" }) })
          }
          updateRef()
          return
        default: {
          const settle = pending.get(reply.id)
          pending.delete(reply.id)
          updateRef()
          if (reply._tag === "Result") settle?.({ ok: true, value: reply.result })
          else if (reply._tag === "Declined") settle?.({ ok: true, value: Declined })
          else settle?.({ ok: false, error: new SqlError({ cause: revive(reply.error), message: "Failed to execute statement" }) })
        }
      }
    }
    replies.on("message", dispatch)
    worker.on("error", (cause) => {
      opened ??= { ok: false, error: cause }
      onOpened?.()
      failAll(new SqlError({ cause, message: "The SQLite worker thread failed" }))
    })
    worker.on("exit", (code) => {
      const cause = new Error(`The SQLite worker thread exited (code ${code})`)
      opened ??= { ok: false, error: cause }
      onOpened?.()
      failAll(new SqlError({ cause, message: "The SQLite worker thread has stopped" }))
    })

    yield* Effect.async<void, SqlError>((resume) => {
      onOpened = () => {
        if (opened?.ok === true) resume(Effect.void)
        else if (opened !== undefined) {
          resume(Effect.fail(new SqlError({ cause: opened.error, message: `Failed to open SQLite database '${options.filename}' (${options.role})` })))
        }
      }
      onOpened()
    }).pipe(Effect.onError(() => Effect.promise(() => worker.terminate())))
    onOpened = undefined
    updateRef()

    yield* Effect.addFinalizer(() =>
      Effect.async<void>((resume) => {
        closing = true
        updateRef()
        const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS)
        worker.once("exit", () => {
          clearTimeout(timer)
          resume(Effect.void)
        })
        if (failure === undefined) worker.postMessage({ _tag: "Close" } satisfies Request)
        else void worker.terminate()
      })
    )

    /**
     * Sends a request and resumes with its answer. With `waitMs` > 0 the answer is first awaited on
     * the spot (Atomics.wait on the signal, then taken off the port), at most that long and within
     * the window's budget: a statement inside a transaction takes microseconds in the worker, and a
     * transaction holds the writer, so waiting a turn of a busy event loop for each of its
     * statements would hold every other write back. Past the wait (e.g. while the worker fsyncs a
     * group), the answer comes as a message on a later turn.
     */
    const call = (
      request: Omit<ExecuteRequest, "id"> | { readonly _tag: "Begin" | "Commit" | "Rollback" },
      waitMs: number,
      onSend?: (id: number) => void
    ) =>
      Effect.async<unknown, SqlError>((resume) => {
        if (failure !== undefined) return resume(Effect.fail(failure))
        const id = nextId++
        onSend?.(id)
        let settled = false
        pending.set(id, (outcome) => {
          settled = true
          resume(outcome.ok ? Effect.succeed(outcome.value) : Effect.fail(outcome.error))
        })
        updateRef()
        try {
          worker.postMessage({ ...request, id } satisfies Request)
        } catch (cause) {
          // A parameter that cannot cross threads (structured clone), e.g. a function.
          pending.delete(id)
          updateRef()
          return resume(Effect.fail(new SqlError({ cause, message: "Failed to send the statement to the SQLite worker" })))
        }
        const started = performance.now()
        const deadline = started + Math.min(waitMs, syncWaitLeft(started))
        while (!settled && failure === undefined) {
          const seen = Atomics.load(signal, 0)
          const message = receiveMessageOnPort(replies)
          if (message !== undefined) {
            dispatch(message.message as Reply)
            continue
          }
          const remaining = deadline - performance.now()
          if (remaining <= 0) break
          Atomics.wait(signal, 0, seen, remaining)
        }
        if (waitMs > 0) syncWait.spent += performance.now() - started
      })

    return {
      execute: (statement, waitMs) => call({ ...statement, _tag: "Execute" }, waitMs),
      transaction: (tag, waitMs) => Effect.asVoid(call({ _tag: tag }, waitMs)),
      commit: (waitMs) =>
        Effect.suspend(() => {
          // Registered before the Commit is sent: `Durable` may follow its answer in the same batch.
          let id = -1
          let early: Parameters<Settle>[0] | undefined
          let waiter: Settle | undefined
          const register = (sent: number) => {
            id = sent
            durable.set(id, (outcome) => (waiter === undefined ? (early = outcome) : waiter(outcome)))
          }
          const isDurable = Effect.async<void, SqlError>((resume) => {
            const settle: Settle = (outcome) => resume(outcome.ok ? Effect.void : Effect.fail(outcome.error))
            if (early === undefined) waiter = settle
            else settle(early)
          })
          return call({ _tag: "Commit" }, waitMs, register).pipe(
            Effect.tapError(() => Effect.sync(() => durable.delete(id))),
            Effect.as(isDurable)
          )
        })
    }
  })
