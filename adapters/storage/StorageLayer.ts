import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import type { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import type { AuditLog } from "../../src/ports/AuditLog.js"
import type { ChangeFeed } from "../../src/ports/ChangeFeed.js"
import type { Crypto } from "../../src/ports/Crypto.js"
import type { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import type { EventOutbox } from "../../src/ports/EventOutbox.js"
import type { FlagRepository } from "../../src/ports/FlagRepository.js"
import type { InsightsRepository } from "../../src/ports/InsightsRepository.js"
import * as IdGenerator from "../../src/ports/IdGenerator.js"
import type { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import type { ScheduleRepository } from "../../src/ports/ScheduleRepository.js"
import type { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import type { StorageHealth } from "../../src/ports/StorageHealth.js"
import type { StreamSecret } from "../../src/ports/StreamSecret.js"
import type { Transactor } from "../../src/ports/Transactor.js"
import type { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import type { ApiKeys } from "../../src/services/ApiKeys.js"
import type { Audit } from "../../src/services/Audit.js"
import * as Core from "../../src/services/Core.js"
import type { Environments } from "../../src/services/Environments.js"
import type { EnvironmentCopy } from "../../src/services/EnvironmentCopy.js"
import type { Flags } from "../../src/services/Flags.js"
import type { Projects } from "../../src/services/Projects.js"
import type { Schedules } from "../../src/services/Schedules.js"
import type { Segments } from "../../src/services/Segments.js"
import type { Snapshots } from "../../src/services/Snapshots.js"
import type { StreamTokens } from "../../src/services/StreamTokens.js"
import * as InProcessChangeFeed from "../change-feed/InProcessChangeFeed.js"
import * as NodeCrypto from "../crypto/NodeCrypto.js"
import type * as MemoryDb from "../memory/MemoryDb.js"
import * as MemoryStorage from "../memory/MemoryStorage.js"
import * as PgChangeFeed from "../sql-pg/PgChangeFeed.js"
import * as PgStorage from "../sql-pg/PgStorage.js"
import * as SqliteChangeFeed from "../sql-sqlite/SqliteChangeFeed.js"
import * as SqliteStorage from "../sql-sqlite/SqliteStorage.js"
import * as SqlStorage from "../sql/SqlStorage.js"
import { databaseUrlConfig, type DatabaseTarget, type InvalidDatabaseUrl, parseDatabaseUrl } from "./DatabaseUrl.js"

// The package's storage entry point also offers everything about DATABASE_URL.
export {
  databaseUrlConfig,
  type DatabaseTarget,
  DEFAULT_DATABASE_URL,
  InvalidDatabaseUrl,
  parseDatabaseUrl,
  redactUrl
} from "./DatabaseUrl.js"

/**
 * Everything the storage layer provides: every port (the change feed included), the storage use
 * cases and an IdGenerator.
 */
export type Storage =
  | ProjectRepository
  | EnvironmentRepository
  | FlagRepository
  | SegmentRepository
  | ApiKeyRepository
  | EventOutbox
  | AuditLog
  | WebhookRepository
  | ScheduleRepository
  | InsightsRepository
  | Transactor
  | ChangeFeed
  | StorageHealth
  | IdGenerator.IdGenerator
  | Crypto
  | Projects
  | Environments
  | Flags
  | EnvironmentCopy
  | Segments
  | ApiKeys
  | Snapshots
  | Schedules
  | StreamSecret
  | StreamTokens
  | Audit

/** The use cases over the SQL ports, migrations applied at build time, with the given change feed. */
const overSql = <RFeed>(feed: Layer.Layer<ChangeFeed, StorageError, RFeed>) =>
  Core.layer.pipe(Layer.provideMerge(Layer.mergeAll(SqlStorage.layer, IdGenerator.layer, NodeCrypto.layer, feed)))

/**
 * The storage over a SQL client layer (SQLite, or PostgreSQL seen from this process only),
 * migrations applied at build time; changes are announced within this process. It also provides
 * the SqlClient, for adapters that add their own SQL (health checks, webhooks).
 */
export const sqlStorage = (
  client: Layer.Layer<SqlClient.SqlClient, StorageError>
): Layer.Layer<Storage | SqlClient.SqlClient, StorageError> =>
  overSql(InProcessChangeFeed.layer).pipe(Layer.provideMerge(client))

/**
 * The storage on a SQLite file, for a process that serves: as `sqlStorage`, with the change feed
 * that also notices other processes' writes to the file (SqliteChangeFeed.ts). `listen: false`
 * (one-shot commands) and `:memory:` (no other process can open it) keep the in-process feed.
 */
export const sqliteStorage = (
  filename: string,
  options: StorageOptions = {}
): Layer.Layer<Storage | SqlClient.SqlClient, StorageError> =>
  overSql(
    options.listen === false || filename === ":memory:" || filename === ""
      ? InProcessChangeFeed.layer
      : SqliteChangeFeed.layer({ filename })
  ).pipe(Layer.provideMerge(SqliteStorage.layer({ filename })))

/**
 * The storage over a PostgreSQL client: as `sqlStorage`, with the change feed that also reaches
 * (and hears) every other process on the same database through LISTEN/NOTIFY.
 */
export const postgresStorage = (
  client: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, StorageError>,
  options: StorageOptions = {}
): Layer.Layer<Storage | SqlClient.SqlClient | PgClient.PgClient, StorageError> =>
  overSql(options.listen === false ? PgChangeFeed.announceOnlyLayer : PgChangeFeed.layer).pipe(Layer.provideMerge(client))

/** The storage in memory (nothing persisted), with its MemoryDb (for other memory adapters). */
export const memoryStorage: Layer.Layer<Storage | MemoryDb.MemoryDb> = Core.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(MemoryStorage.layer, IdGenerator.layer, NodeCrypto.layer))
)

/** `listen: false`: announce this process's changes to other processes but hear none of theirs. */
export interface StorageOptions {
  readonly listen?: boolean
}

/** A database target that SQL reaches. */
export type SqlTarget = Exclude<DatabaseTarget, { readonly _tag: "Memory" }>

/** The backend switch: the bare SQL client for a target (no migrations; `sqlStorage` applies them). */
export const sqlClientFor = (target: SqlTarget): Layer.Layer<SqlClient.SqlClient, StorageError> => {
  switch (target._tag) {
    case "Sqlite":
      return SqliteStorage.layer({ filename: target.filename })
    case "Postgres":
      return PgStorage.layer({ url: target.url })
  }
}

/**
 * Ports + services + ids for one target. SQL targets also provide their SqlClient; PostgreSQL's
 * change feed also reaches the other processes on the database.
 */
export const fromTarget = (target: DatabaseTarget, options: StorageOptions = {}): Layer.Layer<Storage, StorageError> => {
  switch (target._tag) {
    case "Memory":
      return memoryStorage
    case "Sqlite":
      return sqliteStorage(target.filename, options)
    case "Postgres":
      return postgresStorage(PgStorage.layer({ url: target.url }), options)
  }
}

/**
 * The whole storage for a DATABASE_URL. Building it opens the database (creating a SQLite file's
 * directory) and applies pending migrations; closing the layer's scope closes the connections.
 * A malformed URL fails at build time with `InvalidDatabaseUrl`, an unreachable database or a
 * failed migration with `StorageError`.
 */
export const fromDatabaseUrl = (url: string, options: StorageOptions = {}): Layer.Layer<Storage, InvalidDatabaseUrl | StorageError> =>
  Either.match(parseDatabaseUrl(url), {
    onLeft: (error) => Layer.fail(error),
    onRight: (target) => fromTarget(target, options)
  })

export const layerConfig = Layer.unwrapEffect(Effect.map(databaseUrlConfig, (url) => fromDatabaseUrl(url)))

/** For one-shot commands: their writes reach running servers, and they hear no other process. */
export const commandLayerConfig = Layer.unwrapEffect(Effect.map(databaseUrlConfig, (url) => fromDatabaseUrl(url, { listen: false })))

/**
 * For hosts outside Effect: a runtime over the storage. `await runtime.dispose()` closes the
 * database cleanly (pending SQLite WAL frames are checkpointed on close, pools drained).
 */
export const makeRuntime = (url: string) => ManagedRuntime.make(fromDatabaseUrl(url))
