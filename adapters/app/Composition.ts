/**
 * The composition root: the use cases (`src/services/UseCases.ts`) over the ports of a storage
 * target (`adapters/storage/Ports.ts`), and the background workers a process runs (Workers.ts).
 * The standalone server, the mounted handlers, the CLI and the package's `flagport/storage` entry
 * all take the app from here; docs/internals/architecture.md draws where each layer comes from.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type { ConfigError } from "effect/ConfigError"
import * as FlagUsage from "../../src/services/flags/FlagUsage.js"
import * as Insights from "../../src/services/insights/Insights.js"
import * as PlanSettings from "../../src/services/releaseplans/PlanSettings.js"
import * as Sessions from "../../src/services/people/Sessions.js"
import * as UseCasesLayer from "../../src/services/UseCases.js"
import * as Webhooks from "../../src/services/webhooks/Webhooks.js"
import type { StorageError } from "../../src/ports/StorageError.js"
import type * as MemoryDb from "../memory/MemoryDb.js"
import type { SqlClient } from "@effect/sql"
import type { PgClient } from "@effect/sql-pg"
import { databaseUrlConfig, type DatabaseTarget, type InvalidDatabaseUrl } from "../storage/DatabaseUrl.js"
import * as Ports from "../storage/Ports.js"
import * as Workers from "./Workers.js"

// The package's storage entry point also offers everything about DATABASE_URL.
export {
  databaseUrlConfig,
  type DatabaseTarget,
  DEFAULT_DATABASE_URL,
  InvalidDatabaseUrl,
  parseDatabaseUrl,
  redactUrl
} from "../storage/DatabaseUrl.js"
export { sqlClientFor, type SqlTarget, type StorageOptions } from "../storage/Ports.js"
export { type WorkerOptions } from "./Workers.js"

/** The use cases (src/services/UseCases.ts), built here and nowhere else. */
export type UseCases = UseCasesLayer.UseCases

/** Everything a storage target gives the app: its ports and the use cases over them. */
export type Storage = Ports.Ports | UseCases

/** The use cases over `ports` (which stay visible beside them). */
export const withUseCases = <E>(ports: Layer.Layer<Ports.Ports, E>): Layer.Layer<Storage, E> => UseCasesLayer.layer.pipe(Layer.provideMerge(ports))

/** The app over a SQL client layer, changes announced within this process (also provides the SqlClient). */
export const sqlStorage = (client: Layer.Layer<SqlClient.SqlClient, StorageError>): Layer.Layer<Storage | SqlClient.SqlClient, StorageError> =>
  UseCasesLayer.layer.pipe(Layer.provideMerge(Ports.sqlPorts(client)))

/** The app on a SQLite file, hearing other processes' writes to it unless `listen: false` (Ports.sqlitePorts). */
export const sqliteStorage = (filename: string, options: Ports.StorageOptions = {}): Layer.Layer<Storage | SqlClient.SqlClient, StorageError> =>
  UseCasesLayer.layer.pipe(Layer.provideMerge(Ports.sqlitePorts(filename, options)))

/** The app over a PostgreSQL client, its change feed reaching every process on the database. */
export const postgresStorage = (
  client: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, StorageError>,
  options: Ports.StorageOptions = {}
): Layer.Layer<Storage | SqlClient.SqlClient | PgClient.PgClient, StorageError> =>
  UseCasesLayer.layer.pipe(Layer.provideMerge(Ports.postgresPorts(client, options)))

/** The app in memory (nothing persisted), with its MemoryDb (for other memory adapters). */
export const memoryStorage: Layer.Layer<Storage | MemoryDb.MemoryDb> = UseCasesLayer.layer.pipe(Layer.provideMerge(Ports.memoryPorts))

/** The app for one database target. */
export const fromTarget = (target: DatabaseTarget, options: Ports.StorageOptions = {}): Layer.Layer<Storage, StorageError> =>
  withUseCases(Ports.portsFor(target, options))

/**
 * The app for a DATABASE_URL. Building it opens the database (creating a SQLite file's
 * directory) and applies pending migrations; closing the layer's scope closes the connections.
 * A malformed URL fails at build time with `InvalidDatabaseUrl`, an unreachable database or a
 * failed migration with `StorageError`.
 */
export const fromDatabaseUrl = (url: string, options: Ports.StorageOptions = {}): Layer.Layer<Storage, InvalidDatabaseUrl | StorageError> =>
  withUseCases(Ports.portsFromDatabaseUrl(url, options))

export const layerConfig = Layer.unwrapEffect(Effect.map(databaseUrlConfig, (url) => fromDatabaseUrl(url)))

/** For one-shot commands: their writes reach running servers, and they hear no other process. */
export const commandLayerConfig = Layer.unwrapEffect(Effect.map(databaseUrlConfig, (url) => fromDatabaseUrl(url, { listen: false })))

/**
 * For hosts outside Effect: a runtime over the app. `await runtime.dispose()` closes the
 * database cleanly (pending SQLite WAL frames are checkpointed on close, pools drained).
 */
export const makeRuntime = (url: string) => ManagedRuntime.make(fromDatabaseUrl(url))

/** What a serving process adds: webhooks, and evaluation insights counted in memory and flushed (Insights.ts). */
export type Services = Storage | Webhooks.Webhooks | Insights.Insights

/**
 * The app as a serving process uses it, configured from the environment (a bad value fails the
 * build): the stale period of flags (FLAGPORT_STALE_AFTER_DAYS), the sessions' idle period
 * (FLAGPORT_SESSION_IDLE_HOURS), `Webhooks` with its cap
 * (FLAGPORT_WEBHOOKS_PER_PROJECT), and `Insights` (FLAGPORT_INSIGHTS_RETENTION_DAYS) with its flushing fiber (a last flush when the layer's scope closes, before the
 * storage closes). No background worker: see `servicesLayer`.
 */
export const servicesFrom = <E, R>(storage: Layer.Layer<Storage, E, R>): Layer.Layer<Services, E | ConfigError, R> =>
  Layer.mergeAll(Webhooks.layerConfig, Insights.layer).pipe(Layer.provideMerge(storage), Layer.provide(settingsLayerConfig))

/**
 * The settings the services read when they are built, from the environment: FLAGPORT_STALE_AFTER_DAYS
 * (FlagUsage), FLAGPORT_SESSION_IDLE_HOURS (Sessions), FLAGPORT_INSIGHTS_RETENTION_DAYS (Insights),
 * FLAGPORT_RELEASE_PLAN_CHECK_SECONDS (release plans' writes, PlanSettings).
 * A storage built on its own (as `flagport serve` builds it, before the server) needs them provided
 * then: `servicesFrom` over an already built storage cannot change what it read.
 */
export const settingsLayerConfig: Layer.Layer<never, ConfigError> = Layer.mergeAll(
  FlagUsage.layerConfig,
  PlanSettings.layerConfig,
  Insights.retentionLayerConfig,
  Sessions.idleLayerConfig
)

/** `servicesFrom` with the background workers this process runs (all by default; Workers.ts). */
export const servicesLayer = <E, R>(storage: Layer.Layer<Storage, E, R>, workers: Workers.WorkerOptions = {}) =>
  Workers.withWorkers(servicesFrom(storage), workers)
