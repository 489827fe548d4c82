import { Effect } from "effect"
import { note, printLines } from "./Output.js"
import { isEmpty, seed, seedLines } from "./Seed.js"

/**
 * `serve --init` (what `npm start` runs): on an empty database (migrations already applied by
 * the storage layer) seed it and print the key lines once; on any other database do nothing,
 * so a restart never mints or prints keys again.
 */
export const firstStart = Effect.gen(function* () {
  if (!(yield* isEmpty)) return false
  const result = yield* seed
  yield* note("First start: the database was empty, so it was seeded. Keep these keys: they are shown only this once.")
  yield* printLines(seedLines(result))
  return true
}).pipe(Effect.withSpan("cli.firstStart"))
