import { Config } from "effect"

/**
 * The CLI's configuration, read from environment variables (contract: "Command line and
 * first start"). Kept in one place so `--help`, docs/operations.md and the code agree.
 */

/** Where the data lives: `sqlite:<path>` (the default) or `postgres://...`. */
export const DEFAULT_DATABASE_URL = "sqlite:./data/flagport.db"

export const databaseUrl = Config.string("DATABASE_URL").pipe(
  Config.withDefault(DEFAULT_DATABASE_URL),
  // An exported-but-empty variable (`DATABASE_URL=`) means "not set", not "an empty URL".
  Config.map((url) => (url.trim() === "" ? DEFAULT_DATABASE_URL : url.trim()))
)
