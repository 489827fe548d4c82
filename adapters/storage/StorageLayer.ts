import type { SqlClient } from "@effect/sql"
import { Config, Data, Effect, Either, Layer, ManagedRuntime } from "effect"
import type { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import type { Crypto } from "../../src/ports/Crypto.js"
import type { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import type { EventOutbox } from "../../src/ports/EventOutbox.js"
import type { FlagRepository } from "../../src/ports/FlagRepository.js"
import * as IdGenerator from "../../src/ports/IdGenerator.js"
import type { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import type { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import type { StorageHealth } from "../../src/ports/StorageHealth.js"
import type { Transactor } from "../../src/ports/Transactor.js"
import type { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import type { ApiKeys } from "../../src/services/ApiKeys.js"
import * as Core from "../../src/services/Core.js"
import type { Environments } from "../../src/services/Environments.js"
import type { Flags } from "../../src/services/Flags.js"
import type { Projects } from "../../src/services/Projects.js"
import type { Segments } from "../../src/services/Segments.js"
import type { Snapshots } from "../../src/services/Snapshots.js"
import * as NodeCrypto from "../crypto/NodeCrypto.js"
import type * as MemoryDb from "../memory/MemoryDb.js"
import * as MemoryStorage from "../memory/MemoryStorage.js"
import * as PgStorage from "../sql-pg/PgStorage.js"
import * as SqliteStorage from "../sql-sqlite/SqliteStorage.js"
import * as SqlStorage from "../sql/SqlStorage.js"

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

/** Everything the storage layer provides: every port, the storage use cases and an IdGenerator. */
export type Storage =
  | ProjectRepository
  | EnvironmentRepository
  | FlagRepository
  | SegmentRepository
  | ApiKeyRepository
  | EventOutbox
  | WebhookRepository
  | Transactor
  | StorageHealth
  | IdGenerator.IdGenerator
  | Crypto
  | Projects
  | Environments
  | Flags
  | Segments
  | ApiKeys
  | Snapshots

/**
 * The storage over a SQL client layer (SQLite or PostgreSQL), migrations applied at build time.
 * It also provides the SqlClient, for adapters that add their own SQL (health checks, webhooks).
 */
export const sqlStorage = (
  client: Layer.Layer<SqlClient.SqlClient, StorageError>
): Layer.Layer<Storage | SqlClient.SqlClient, StorageError> =>
  Core.layer.pipe(Layer.provideMerge(Layer.mergeAll(SqlStorage.layer, IdGenerator.layer, NodeCrypto.layer)), Layer.provideMerge(client))

/** The storage in memory (nothing persisted), with its MemoryDb (for other memory adapters). */
export const memoryStorage: Layer.Layer<Storage | MemoryDb.MemoryDb> = Core.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, IdGenerator.layer, NodeCrypto.layer))
)

/** Ports + services + ids for one target. SQL targets also provide their SqlClient. */
export const fromTarget = (target: DatabaseTarget): Layer.Layer<Storage, StorageError> => {
  switch (target._tag) {
    case "Memory":
      return memoryStorage
    case "Sqlite":
      return sqlStorage(SqliteStorage.layer({ filename: target.filename }))
    case "Postgres":
      return sqlStorage(PgStorage.layer({ url: target.url }))
  }
}

/**
 * The whole storage for a DATABASE_URL. Building it opens the database (creating a SQLite file's
 * directory) and applies pending migrations; closing the layer's scope closes the connections.
 * A malformed URL fails at build time with `InvalidDatabaseUrl`, an unreachable database or a
 * failed migration with `StorageError`.
 */
export const fromDatabaseUrl = (url: string): Layer.Layer<Storage, InvalidDatabaseUrl | StorageError> =>
  Either.match(parseDatabaseUrl(url), {
    onLeft: (error) => Layer.fail(error),
    onRight: fromTarget
  })

/** DATABASE_URL from the environment (default `sqlite:./data/flagport.db`). */
export const databaseUrlConfig: Config.Config<string> = Config.string("DATABASE_URL").pipe(
  Config.withDefault(DEFAULT_DATABASE_URL)
)

export const layerConfig = Layer.unwrapEffect(Effect.map(databaseUrlConfig, fromDatabaseUrl))

/**
 * For hosts outside Effect: a runtime over the storage. `await runtime.dispose()` closes the
 * database cleanly (pending SQLite WAL frames are checkpointed on close, pools drained).
 */
export const makeRuntime = (url: string) => ManagedRuntime.make(fromDatabaseUrl(url))
