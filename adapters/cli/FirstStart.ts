import * as Effect from "effect/Effect"
import { Projects } from "../../src/services/Projects.js"
import { exclusively } from "../sql/StartupLock.js"
import { note, printLines } from "./Output.js"
import { DEFAULT_PROJECT_ID, isEmpty, seed, seedLines } from "./Seed.js"

/**
 * Claims the first start by creating the default project. Creation is one transaction with a
 * unique id, so of several processes racing on one empty database (replicas started together on
 * PostgreSQL), exactly one succeeds; the others get a conflict and leave the seeding to it.
 */
const claimFirstStart = Effect.flatMap(Projects, (projects) => projects.create({ id: DEFAULT_PROJECT_ID, name: "Default" })).pipe(
  Effect.as(true),
  Effect.catchTag("ResourceConflict", () => Effect.succeed(false))
)

/**
 * `serve --init` (what `npm start` runs): on an empty database (migrations already applied by
 * the storage layer) seed it and print the key lines once; on any other database do nothing,
 * so a restart never mints or prints keys again. When several processes start at once on an
 * empty database, only the one that claims the first start mints and prints keys. On PostgreSQL
 * the whole of it runs under the start-up lock (as migrations do): the others wait, then find the
 * database seeded; the claim still decides on SQLite, where processes are not made to take turns.
 */
export const firstStart = Effect.gen(function* () {
  if (!(yield* isEmpty)) {
    yield* note(
      "This database was set up before: its keys were printed on its first start and cannot be shown again. " +
        "For new ones: npx flagport seed (a new server and client key; old keys stay valid)."
    )
    return false
  }
  if (!(yield* claimFirstStart)) {
    yield* note("First start: another process is seeding this database; its output has the keys.")
    return false
  }
  const result = yield* seed
  yield* note(
    "First start: the database was empty, so it was seeded. These keys are shown only this once. " +
      "Treat them as secrets: SERVER_KEY can change every flag of every project. Lost them? npx flagport seed makes new ones."
  )
  yield* printLines(seedLines(result))
  return true
}).pipe(exclusively, Effect.withSpan("cli.firstStart"))
