/**
 * DATABASE_URL, the one setting that says where the data lives: its default, how it is read from
 * the environment, its accepted forms, and how it is shown (password hidden) in messages and logs.
 */
import * as Config from "effect/Config"
import * as Data from "effect/Data"
import * as Either from "effect/Either"
/** The default: a SQLite file beside the working directory. */
export const DEFAULT_DATABASE_URL = "sqlite:./data/flagport.db"

/** Where the data lives, parsed from DATABASE_URL. */
export type DatabaseTarget =
  | { readonly _tag: "Sqlite"; readonly filename: string }
  | { readonly _tag: "Postgres"; readonly url: string }
  | { readonly _tag: "Memory" }

/** DATABASE_URL is not one of the accepted forms; the message says which forms are. */
export class InvalidDatabaseUrl extends Data.TaggedError("InvalidDatabaseUrl")<{ readonly message: string }> {}

const FORMS =
  "expected sqlite:PATH (e.g. sqlite:./data/flagport.db), postgres://USER:PASSWORD@HOST:PORT/DATABASE (or postgresql://), or memory:"

/**
 * Parses DATABASE_URL:
 * - `sqlite:PATH` (`sqlite:./data/flagport.db`, `sqlite:/var/lib/flagport.db`, `sqlite:///abs/path.db`, `sqlite::memory:`)
 * - `postgres://...` or `postgresql://...` (a host is required)
 * - `memory:` (nothing persisted; demos and tests)
 */
export const parseDatabaseUrl = (raw: string): Either.Either<DatabaseTarget, InvalidDatabaseUrl> => {
  const url = raw.trim()
  const invalid = (why: string) => Either.left(new InvalidDatabaseUrl({ message: `Invalid DATABASE_URL (${why}): ${FORMS}` }))
  if (url === "") return invalid("empty")
  if (url === "memory:" || url === "memory://") return Either.right({ _tag: "Memory" })
  if (url.startsWith("sqlite:")) {
    let path = url.slice("sqlite:".length)
    if (path.startsWith("//")) path = path.slice(2)
    if (path === "") return invalid("no file path after sqlite:")
    return Either.right({ _tag: "Sqlite", filename: path })
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return invalid("not a well-formed postgres URL")
    }
    if (parsed.hostname === "") return invalid("no host in the postgres URL")
    if (parsed.port !== "" && !/^\d+$/.test(parsed.port)) return invalid("bad port")
    return Either.right({ _tag: "Postgres", url })
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]
  return invalid(scheme === undefined ? "no scheme" : `unsupported scheme '${scheme}'`)
}

/**
 * DATABASE_URL from the environment (default `sqlite:./data/flagport.db`). An exported-but-empty
 * variable (`DATABASE_URL=`) means "not set", not "an empty URL".
 */
export const databaseUrlConfig: Config.Config<string> = Config.string("DATABASE_URL").pipe(
  Config.withDefault(DEFAULT_DATABASE_URL),
  Config.map((url) => (url.trim() === "" ? DEFAULT_DATABASE_URL : url.trim()))
)

// The password of a URL is hidden where PostgreSQL reports it too (the storage switch reads it here).
export { redactUrl } from "../sql-pg/RedactUrl.js"
