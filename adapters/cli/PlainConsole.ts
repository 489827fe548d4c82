import { Console, Effect } from "effect"

/**
 * @effect/cli renders help and parse errors with ANSI styles whatever the output is. Scripts,
 * pipes, log files and NO_COLOR users get the same text without escape codes.
 */

const ANSI = /\u001b\[[0-9;]*m/g

const strip = (args: ReadonlyArray<unknown>) => args.map((arg) => (typeof arg === "string" ? arg.replace(ANSI, "") : arg))

const colorWanted = (stream: NodeJS.WriteStream) => stream.isTTY === true && !process.env.NO_COLOR

export const withPlainOutput = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((console) => {
    const plainOut = !colorWanted(process.stdout)
    const plainErr = !colorWanted(process.stderr)
    if (!plainOut && !plainErr) return self
    return Effect.withConsole(self, {
      ...console,
      log: (...args) => console.log(...(plainOut ? strip(args) : args)),
      error: (...args) => console.error(...(plainErr ? strip(args) : args))
    })
  })
