import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Ref from "effect/Ref"
import { actingAs, operator } from "../../src/domain/auth/Caller.js"
import { run } from "./Cli.js"
import { EXIT_FAILURE, EXIT_USAGE, report } from "./Failure.js"
import { helpFor } from "./Help.js"
import { withPlainOutput } from "./PlainConsole.js"
import { initialState, Progress, SIGNAL_EXIT_CODES, type StopSignal } from "./Progress.js"

/**
 * The first of SIGINT and SIGTERM the process receives (NodeRuntime.runMain, which turns it into an
 * interruption of the command, does not say which). Both listeners go once one fires, as runMain's
 * do, so a second Ctrl-C ends the process at once.
 */
const firstSignal = (): (() => StopSignal | undefined) => {
  let received: StopSignal | undefined
  const listeners = (Object.keys(SIGNAL_EXIT_CODES) as Array<StopSignal>).map((signal) => {
    const listener = () => {
      received = signal
      for (const [name, other] of listeners) process.off(name, other)
    }
    process.on(signal, listener)
    return [signal, listener] as const
  })
  return () => received
}

/**
 * Runs the CLI for a full `process.argv` (node, script, ...args). SIGINT/SIGTERM interrupt the
 * command, which closes its scope in order (an HTTP server stops accepting and drains, then the
 * database closes); the command then exits 130 (SIGINT) or 143 (SIGTERM) with one line saying what
 * it had done (Progress.ts), except `serve`, for which a signal is the way to stop (exit 0).
 * Failures print one line on stderr (see Failure.ts).
 */
export const main = (argv: ReadonlyArray<string>): void => {
  // `flagport` alone, and any --help, shows our own help page rather than the parser's (Help.ts).
  const help = helpFor(argv.slice(2))
  if (help !== undefined) {
    process.stdout.write(help)
    return
  }
  let exitCode = 0
  const signal = firstSignal()
  const progress = Effect.runSync(Ref.make(initialState))
  const program = Effect.suspend(() => run(argv)).pipe(
    withPlainOutput,
    Effect.catchAllCause((cause) => {
      if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
      const outcome = report(cause, argv.includes("--detailed-exitcode") ? EXIT_FAILURE : EXIT_USAGE)
      exitCode = outcome.exitCode
      return Effect.sync(() => {
        if (outcome.line !== "") process.stderr.write(`${outcome.line}\n`)
        if (process.env.FLAGPORT_DEBUG) process.stderr.write(`${Cause.pretty(cause)}\n`)
      })
    }),
    // A command is the operator's: it may do everything, and the audit log records its writes as
    // `cli` (a server started by `serve` acts as each request's key or person instead, provided per request).
    actingAs(operator, { type: "cli" }),
    Effect.provideService(Progress, progress),
    Effect.provide(NodeContext.layer)
  )
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    // runMain calls process.exit for non-zero codes; a zero code lets the process end by itself.
    teardown: (exit, onExit) => {
      if (Exit.isSuccess(exit)) return onExit(exitCode)
      const stoppedBy = signal()
      if (!Cause.isInterruptedOnly(exit.cause) || stoppedBy === undefined) return onExit(1)
      const state = Effect.runSync(Ref.get(progress))
      if (state.stopsOnSignal) return onExit(0)
      process.stderr.write(`interrupted by ${stoppedBy}: ${state.line}\n`)
      onExit(SIGNAL_EXIT_CODES[stoppedBy])
    }
  })
}
