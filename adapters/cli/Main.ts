import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { actingAs, operator } from "../../src/domain/auth/Caller.js"
import { run } from "./Cli.js"
import { EXIT_FAILURE, EXIT_USAGE, report } from "./Failure.js"
import { helpFor } from "./Help.js"
import { withPlainOutput } from "./PlainConsole.js"

/**
 * Runs the CLI for a full `process.argv` (node, script, ...args). SIGINT/SIGTERM interrupt the
 * command, which closes its scope in order: the HTTP server stops accepting and drains, then the
 * database closes; an interrupted run exits 0. Failures print one line on stderr (see Failure.ts).
 */
export const main = (argv: ReadonlyArray<string>): void => {
  // `flagport` alone, and any --help, shows our own help page rather than the parser's (Help.ts).
  const help = helpFor(argv.slice(2))
  if (help !== undefined) {
    process.stdout.write(help)
    return
  }
  let exitCode = 0
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
    Effect.provide(NodeContext.layer)
  )
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    // runMain calls process.exit for non-zero codes; a zero code lets the process end by itself.
    teardown: (exit, onExit) =>
      onExit(Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause) ? 1 : exitCode)
  })
}
