/**
 * The backend switch: every port of the core for one database target, and nothing else (the use
 * cases are built over these ports in one place, adapters/app/Composition.ts).
 */
import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import type { AuditLog } from "../../src/ports/AuditLog.js"
import type { ChangeRequestRepository } from "../../src/ports/ChangeRequestRepository.js"
import type { ChangeFeed } from "../../src/ports/ChangeFeed.js"
import type { Crypto } from "../../src/ports/Crypto.js"
import type { EnvironmentRepository } from "../../src/ports/EnvironmentRepository.js"
import type { EventOutbox } from "../../src/ports/EventOutbox.js"
import type { ExperimentRepository } from "../../src/ports/ExperimentRepository.js"
import type { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import type { ReleasePlanRepository } from "../../src/ports/ReleasePlanRepository.js"
import type { FlagRepository } from "../../src/ports/FlagRepository.js"
import type { InsightsRepository } from "../../src/ports/InsightsRepository.js"
import * as IdGenerator from "../../src/ports/IdGenerator.js"
import type { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import type { ScheduleRepository } from "../../src/ports/ScheduleRepository.js"
import type { SegmentKeyRepository } from "../../src/ports/SegmentKeyRepository.js"
import type { SegmentRepository } from "../../src/ports/SegmentRepository.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import type { StorageHealth } from "../../src/ports/StorageHealth.js"
import type { StreamSecret } from "../../src/ports/StreamSecret.js"
import type { Transactor } from "../../src/ports/Transactor.js"
import type { WebhookBacklog } from "../../src/ports/WebhookBacklog.js"
import type { WebhookRepository } from "../../src/ports/WebhookRepository.js"
import type { PasswordHasher } from "../../src/ports/PasswordHasher.js"
import type { SessionRepository } from "../../src/ports/SessionRepository.js"
import type { SetupTokenRepository } from "../../src/ports/SetupTokenRepository.js"
import type { SignInFailureRepository } from "../../src/ports/SignInFailureRepository.js"
import type { SsoIdentityRepository } from "../../src/ports/SsoIdentityRepository.js"
import type { UserRepository } from "../../src/ports/UserRepository.js"
import * as InProcessChangeFeed from "../change-feed/InProcessChangeFeed.js"
import * as NodeCrypto from "../crypto/NodeCrypto.js"
import type * as MemoryDb from "../memory/MemoryDb.js"
import * as MemoryStorage from "../memory/MemoryStorage.js"
import * as PgChangeFeed from "../sql-pg/PgChangeFeed.js"
import * as PgStorage from "../sql-pg/PgStorage.js"
import * as SqliteChangeFeed from "../sql-sqlite/SqliteChangeFeed.js"
import * as SqliteStorage from "../sql-sqlite/SqliteStorage.js"
import * as SqlStorage from "../sql/SqlStorage.js"
import { type DatabaseTarget, type InvalidDatabaseUrl, parseDatabaseUrl } from "./DatabaseUrl.js"

/** Every port a storage target provides: the repositories, the change feed, ids, crypto and password hashing. */
export type Ports =
  | ProjectRepository
  | EnvironmentRepository
  | FlagRepository
  | SegmentRepository
  | SegmentKeyRepository
  | ApiKeyRepository
  | EventOutbox
  | AuditLog
  | WebhookRepository
  | WebhookBacklog
  | ScheduleRepository
  | InsightsRepository
  | Transactor
  | ChangeFeed
  | StorageHealth
  | StreamSecret
  | UserRepository
  | SessionRepository
  | SetupTokenRepository
  | SignInFailureRepository
  | SsoIdentityRepository
  | ChangeRequestRepository
  | ExperimentRepository
  | ExperimentUnitRepository
  | ReleasePlanRepository
  | IdGenerator.IdGenerator
  | Crypto
  | PasswordHasher

/** `listen: false`: announce this process's changes to other processes but hear none of theirs. */
export interface StorageOptions {
  readonly listen?: boolean
}

/** The SQL ports, migrations applied at build time, with the given change feed. */
const overSql = <RFeed>(feed: Layer.Layer<ChangeFeed, StorageError, RFeed>) =>
  Layer.mergeAll(SqlStorage.layer, IdGenerator.layer, NodeCrypto.layer, feed)

/**
 * The ports over a SQL client layer (SQLite, or PostgreSQL seen from this process only),
 * migrations applied at build time; changes are announced within this process. It also provides
 * the SqlClient, for adapters that add their own SQL (health checks, webhooks).
 */
export const sqlPorts = (client: Layer.Layer<SqlClient.SqlClient, StorageError>): Layer.Layer<Ports | SqlClient.SqlClient, StorageError> =>
  overSql(InProcessChangeFeed.layer).pipe(Layer.provideMerge(client))

/**
 * The ports on a SQLite file, for a process that serves: as `sqlPorts`, with the change feed
 * that also notices other processes' writes to the file (SqliteChangeFeed.ts). `listen: false`
 * (one-shot commands) and `:memory:` (no other process can open it) keep the in-process feed.
 */
export const sqlitePorts = (filename: string, options: StorageOptions = {}): Layer.Layer<Ports | SqlClient.SqlClient, StorageError> =>
  overSql(
    options.listen === false || filename === ":memory:" || filename === ""
      ? InProcessChangeFeed.layer
      : SqliteChangeFeed.layer({ filename })
  ).pipe(Layer.provideMerge(SqliteStorage.layer({ filename })))

/**
 * The ports over a PostgreSQL client: as `sqlPorts`, with the change feed that also reaches
 * (and hears) every other process on the same database through LISTEN/NOTIFY.
 */
export const postgresPorts = (
  client: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, StorageError>,
  options: StorageOptions = {}
): Layer.Layer<Ports | SqlClient.SqlClient | PgClient.PgClient, StorageError> =>
  overSql(options.listen === false ? PgChangeFeed.announceOnlyLayer : PgChangeFeed.layer).pipe(Layer.provideMerge(client))

/** The ports in memory (nothing persisted), with their MemoryDb (for other memory adapters). */
export const memoryPorts: Layer.Layer<Ports | MemoryDb.MemoryDb> = Layer.mergeAll(MemoryStorage.layer, IdGenerator.layer, NodeCrypto.layer)

/** A database target that SQL reaches. */
export type SqlTarget = Exclude<DatabaseTarget, { readonly _tag: "Memory" }>

/**
 * The SQL client for a target (no migrations; `sqlPorts` applies them). `modeWarning: false` for a
 * SQLite file whose mode the caller settles itself (`flagport transfer` makes its target 0600).
 */
export const sqlClientFor = (target: SqlTarget, options: { readonly modeWarning?: boolean } = {}): Layer.Layer<SqlClient.SqlClient, StorageError> => {
  switch (target._tag) {
    case "Sqlite":
      return SqliteStorage.layer({ filename: target.filename, modeWarning: options.modeWarning ?? true })
    case "Postgres":
      return PgStorage.layer({ url: target.url })
  }
}

/** The ports of one target; PostgreSQL's change feed also reaches the other processes on the database. */
export const portsFor = (target: DatabaseTarget, options: StorageOptions = {}): Layer.Layer<Ports, StorageError> => {
  switch (target._tag) {
    case "Memory":
      return memoryPorts
    case "Sqlite":
      return sqlitePorts(target.filename, options)
    case "Postgres":
      return postgresPorts(PgStorage.layer({ url: target.url }), options)
  }
}

/** The ports for a DATABASE_URL; a malformed URL fails at build time with `InvalidDatabaseUrl`. */
export const portsFromDatabaseUrl = (url: string, options: StorageOptions = {}): Layer.Layer<Ports, InvalidDatabaseUrl | StorageError> =>
  Either.match(parseDatabaseUrl(url), {
    onLeft: (error) => Layer.fail(error),
    onRight: (target) => portsFor(target, options)
  })
