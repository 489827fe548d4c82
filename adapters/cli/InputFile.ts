/**
 * What a command reads besides its options: a file named on the command line, or standard input
 * (`-`, `--password-stdin`). Read asynchronously, so a signal (Ctrl-C) reaches the command while
 * it waits on a pipe or a slow file (a synchronous read would hold the process until it ended).
 * A file that cannot be read is a failed operation (exit 1), not a wrong command line: the command
 * line was understood, the file named is missing or unreadable.
 */
import { readFile } from "node:fs/promises"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/** The input could not be read, or holds nothing a command can use (exit 1). */
export class InputUnusable extends Data.TaggedError("InputUnusable")<{ readonly message: string }> {}

/** Standard input to its end, as text. */
export const readStdin: Effect.Effect<string> = Effect.async<string>((resume) => {
  const chunks: Array<Buffer> = []
  const onData = (chunk: Buffer) => void chunks.push(chunk)
  const onEnd = () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
  process.stdin.on("data", onData)
  process.stdin.once("end", onEnd)
  process.stdin.resume()
  // Interrupted (a signal) while waiting: stop reading, so nothing holds the process open.
  return Effect.sync(() => {
    process.stdin.off("data", onData)
    process.stdin.off("end", onEnd)
    process.stdin.pause()
  })
})

/** The text of `file` (`-`: standard input), or why it cannot be had. */
export const readInput = (file: string): Effect.Effect<string, InputUnusable> =>
  file === "-"
    ? readStdin
    : Effect.tryPromise({
      try: (signal) => readFile(file, { encoding: "utf8", signal }),
      catch: (error) => new InputUnusable({ message: `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}` })
    })
