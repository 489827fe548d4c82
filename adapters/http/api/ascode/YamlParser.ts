/**
 * A YAML project file parsed on a worker thread: the parse of a file near the 1 MiB body cap takes
 * about two seconds of CPU (the `yaml` library builds a whole document tree), which on the event
 * loop stalls every request of every project meanwhile (evaluations included). JSON bodies are
 * parsed in place (`JSON.parse` of 1 MiB takes milliseconds).
 *
 * Each parse has a thread of its own, started from the source text of `parseWith`
 * (src/domain/ascode/FileText.ts, self-contained for this), as the SQLite worker is
 * (adapters/sql-sqlite/worker/SqliteWorker.ts): a thread costs a few tens of milliseconds, small
 * beside an apply, and a parse that fails in any way (a crash, memory) ends only its own thread.
 * At most `IN_FLIGHT` parses run at once (the others wait their turn), so a burst of applies uses
 * at most that many cores and that much memory. An interrupted request (the client went away)
 * ends its thread.
 */
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import * as Effect from "effect/Effect"
import { PARSE_LIMITS, type ParsedText, parseWith } from "../../../../src/domain/ascode/FileText.js"

/** Parses in flight at once, on a machine of a few cores shared with the evaluations. */
const IN_FLIGHT = 2

/** See SqliteWorker.ts: esbuild with `keepNames` (as tsx runs) wraps named functions in `__name`. */
const TRANSPILER_HELPERS = "var __name = (target) => target;"

/** The `yaml` package's absolute path: the worker runs source text, which has no location to resolve from. */
const resolveYaml = (): string =>
  (typeof __filename === "string" ? createRequire(__filename) : createRequire(import.meta.url)).resolve("yaml")

const WORKER_SOURCE = `${TRANSPILER_HELPERS}
const { parentPort, workerData } = require("node:worker_threads");
const parse = (${String(parseWith)})(require(workerData.yaml), workerData.limits);
parentPort.postMessage(parse(workerData.text));`

const slots = Effect.unsafeMakeSemaphore(IN_FLIGHT)

/** One parse on a thread of its own: the text's value or its problems; dies if the thread fails. */
const parseOnThread = (text: string): Effect.Effect<ParsedText> =>
  Effect.async<ParsedText>((resume) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { yaml: resolveYaml(), limits: PARSE_LIMITS, text } })
    let settled = false
    const settle = (outcome: Effect.Effect<ParsedText>) => {
      if (settled) return
      settled = true
      resume(outcome)
      void worker.terminate()
    }
    worker.once("message", (parsed: ParsedText) => settle(Effect.succeed(parsed)))
    worker.once("error", (error) => settle(Effect.die(error)))
    worker.once("exit", (code) => settle(Effect.dieMessage(`the YAML parser's thread ended (exit code ${code}) without an answer`)))
    return Effect.sync(() => {
      settled = true
      void worker.terminate()
    })
  })

/** The parse of a project file's YAML text, off the event loop (see the module's comment). */
export const parseYaml = Effect.fn("FlagsAsCode.parseYaml")(function* (text: string) {
  return yield* slots.withPermits(1)(parseOnThread(text))
})
