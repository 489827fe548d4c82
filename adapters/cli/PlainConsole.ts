import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
/**
 * How @effect/cli's console output reaches the user (its help is replaced by Help.ts):
 * - it renders with ANSI styles whatever the output is; scripts, pipes, log files and
 *   NO_COLOR users get the same text without escape codes;
 * - its multi-line parse errors are not printed: Failure.ts reports them as the one `error:` line
 *   every failure gets. (Console.error carries nothing else: our own notes write to stderr directly.)
 */

const ANSI = /\u001b\[[0-9;]*m/g

const strip = (args: ReadonlyArray<unknown>) => args.map((arg) => (typeof arg === "string" ? arg.replace(ANSI, "") : arg))

const colorWanted = (stream: NodeJS.WriteStream) => stream.isTTY === true && !process.env.NO_COLOR

export const withPlainOutput = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Console.consoleWith((console) => {
      const plainOut = !colorWanted(process.stdout)
      return Effect.withConsole(self, {
        ...console,
        log: (...values) => console.log(...(plainOut ? strip(values) : values)),
        error: () => Effect.void
      })
    })
