/**
 * The database of a command: DATABASE_URL, opened for the command and closed when it ends (or on a
 * signal). Opening applies pending migrations.
 *
 * Only the commands that begin a database (`serve`, `migrate`, `seed`, and `transfer`'s target)
 * create a SQLite file that is not there; every other command opens an existing one, and a missing
 * file is an error naming the path (a command run from another directory would otherwise make an
 * empty `data/flagport.db` there and report the default project as not found). A not-found error
 * names the database it was looked up in, for the same reason.
 */
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import * as Command from "@effect/cli/Command"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { ResourceNotFound } from "../../src/domain/Errors.js"
import * as StorageLayer from "../app/Composition.js"
import { databaseUrlConfig, parseDatabaseUrl, redactUrl } from "../storage/DatabaseUrl.js"

/** DATABASE_URL names a SQLite file that does not exist, for a command that does not create one. */
export class DatabaseMissing extends Data.TaggedError("DatabaseMissing")<{ readonly message: string }> {}

/** The SQLite file DATABASE_URL names, when it names one that is not there. */
const missingSqliteFile = (url: string): string | undefined => {
  const target = parseDatabaseUrl(url)
  if (Either.isLeft(target) || target.right._tag !== "Sqlite") return undefined
  const filename = target.right.filename
  return filename === ":memory:" || existsSync(filename) ? undefined : filename
}

const opened = (create: boolean) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const url = yield* databaseUrlConfig
      const missing = create ? undefined : missingSqliteFile(url)
      if (missing !== undefined) {
        return yield* new DatabaseMissing({
          message:
            `no database at ${missing} (${resolve(missing)}, from DATABASE_URL=${redactUrl(url)}): this command opens an existing database; ` +
            "run it where the database is or set DATABASE_URL, or create one with flagport migrate, seed or serve"
        })
      }
      return StorageLayer.fromDatabaseUrl(url, { listen: false })
    })
  )

/** For the commands that read and change an existing database. */
export const layer = opened(false)

/** For the commands that may begin a database (`seed`): a missing SQLite file is created. */
export const creatingLayer = opened(true)

/** `Project 'x' not found in sqlite:./data/flagport.db`: the lookup and where it was made. */
const whereFound = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is E & ResourceNotFound => error instanceof ResourceNotFound,
    (error) =>
      Effect.flatMap(databaseUrlConfig.pipe(Effect.orDie), (url) =>
        Effect.fail(new ResourceNotFound({
          message: `${error.message}${/ in project '[^']*'$/.test(error.message) ? " of" : " in"} ${redactUrl(url)}`,
          // The near match and known names (NotFound.ts) follow on the same line (Failure.ts).
          ...(error.details === undefined ? {} : { details: error.details })
        }))
      )
  )

/** Runs a command's work against the database (see the top of this file). */
export const withDatabase = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(whereFound(effect), layer)

/** The same for a whole command (`Command.make(...).pipe(Storage.forCommand)`). */
export const forCommand = <Name extends string, R, E, A>(command: Command.Command<Name, R, E, A>) =>
  command.pipe(Command.transformHandler(whereFound), Command.provide(layer))
