import * as Effect from "effect/Effect"
import { Projects } from "../../src/services/projects/Projects.js"
import { Users } from "../../src/services/people/Users.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
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

/** The first global admin, made at the first start (renamed in the dashboard). */
export const FIRST_ADMIN_EMAIL = "admin@localhost"

/** What the first start made that is printed once the server listens: the first admin's setup token. */
export interface FirstStart {
  /** None when admin@localhost existed before the first start. */
  readonly setupToken: string | null
}

/**
 * `serve --init` (what `npm start` runs): on an empty database (migrations already applied by
 * the storage layer) seed it, make the first global admin (admin@localhost, no password yet) and
 * print the key lines once, answering the admin's setup token; on any other database do nothing,
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
    // A database set up before people existed has keys but nobody to sign in as.
    if ((yield* (yield* UserRepository).countAdmins()) === 0) {
      yield* note(`No global admin can sign in yet: npx flagport users create --email you@example.com --admin prints a setup link.`)
    }
    return null
  }
  if (!(yield* claimFirstStart)) {
    yield* note("First start: another process is seeding this database; its output has the keys.")
    return null
  }
  const result = yield* seed
  // Someone may have made people (`users create`) before the first start: an admin@localhost of
  // theirs is kept, and gets no link here.
  const setupToken = yield* (yield* Users).invite({ email: FIRST_ADMIN_EMAIL, name: "Admin", admin: true }).pipe(
    Effect.map((invited) => invited.setupToken),
    Effect.catchTag("ResourceConflict", () => Effect.succeed(null))
  )
  yield* note(
    "First start: the database was empty, so it was seeded. These keys are shown only this once. " +
      "Treat them as secrets: SERVER_KEY can change every flag of every project. Lost them? npx flagport seed makes new ones. " +
      `SETUP_URL (once listening) sets the password of the first global admin, ${FIRST_ADMIN_EMAIL} (rename it in the dashboard); ` +
      `it works once, for 72 hours (a new one: npx flagport users reset-password ${FIRST_ADMIN_EMAIL}).`
  )
  yield* printLines(seedLines(result))
  return { setupToken } satisfies FirstStart
}).pipe(exclusively, Effect.withSpan("cli.firstStart"))
