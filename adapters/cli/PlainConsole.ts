import { Console, Effect } from "effect"
import { withCommandPath } from "./CommandPath.js"

/**
 * How @effect/cli's console output reaches the user:
 * - it renders help with ANSI styles whatever the output is; scripts, pipes, log files and
 *   NO_COLOR users get the same text without escape codes;
 * - a subcommand's help shows its full path (`$ flagport keys create ...`, see CommandPath.ts);
 * - its multi-line parse errors are not printed: Failure.ts reports them as the one `error:` line
 *   every failure gets. (Console.error carries nothing else: our own notes write to stderr directly.)
 */

const ANSI = /\u001b\[[0-9;]*m/g

const strip = (args: ReadonlyArray<unknown>) => args.map((arg) => (typeof arg === "string" ? arg.replace(ANSI, "") : arg))

const colorWanted = (stream: NodeJS.WriteStream) => stream.isTTY === true && !process.env.NO_COLOR

/** `args`: the command line without node and the script, for the help's command path. */
export const withPlainOutput =
  (args: ReadonlyArray<string>) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Console.consoleWith((console) => {
      const plainOut = !colorWanted(process.stdout)
      const withPath = (values: ReadonlyArray<unknown>) =>
        values.map((value) => (typeof value === "string" ? withCommandPath(value, "flagport", args) : value))
      return Effect.withConsole(self, {
        ...console,
        log: (...values) => console.log(...withPath(plainOut ? strip(values) : values)),
        error: () => Effect.void
      })
    })
