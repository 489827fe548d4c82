/**
 * Test fixtures for the HTTP adapter: the storage services over a chosen backend, a REAL server
 * on port 0 running the standalone composition (lane + HttpApi app), keys made through the
 * ApiKeys service, and a tiny fetch client.
 */
import type { LaneConfig } from "../../adapters/http/lane/EvaluationLaneLayer.js"
import { type Context, Effect, Layer, ManagedRuntime, Option } from "effect"
import type { OidcSettings } from "../../adapters/oidc/OidcSettings.js"
import { startServer as startStandalone, type RunningServer } from "../../adapters/http/serving/Server.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { ApiKeys, hashSecret } from "../../src/services/auth/ApiKeys.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Projects } from "../../src/services/projects/Projects.js"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"
import type { MetricsSettings } from "../../adapters/metrics/MetricsConfig.js"
import type { LogFormat } from "../../adapters/http/serving/RequestLog.js"

export interface Keys {
  readonly global: string
  readonly scoped: string
  readonly otherScoped: string
  readonly client: string
  readonly otherClient: string
  /** A client key without a project, as only a direct repository write (or old data) can make. */
  readonly unscopedClient: string
  readonly revoked: string
  /** Keys of p1 bound to one environment: a client key to development, a client and a server key to production. */
  readonly boundClient: string
  readonly boundClientOther: string
  readonly boundServerOther: string
  /** A p1 client key bound to an environment the project does not have (only old data or a direct write can make one). */
  readonly boundToUnknown: string
}

export interface TestServer {
  readonly url: string
  readonly keys: Keys
  readonly server: RunningServer
  readonly run: <A, E>(effect: Effect.Effect<A, E, StorageLayer.Storage>) => Promise<A>
  readonly close: () => Promise<void>
  /** Closes only the storage (the database connection), leaving the HTTP server up. */
  readonly closeStorage: () => Promise<void>
}

/**
 * Starts the standalone server (Server.ts, the real composition root) on 127.0.0.1 port 0 over
 * `storage`, with projects `p1` and `p2` (environments `development` and `production`) and one
 * key of every kind. The storage is built here first so the test can reach its services.
 */
export const startServer = async (
  storage: Layer.Layer<StorageLayer.Storage, unknown> = StorageLayer.memoryStorage,
  options: {
    readonly lane?: LaneConfig
    /** Run the webhook dispatcher (default false). */
    readonly webhooks?: boolean
    /** Run the scheduler of scheduled changes (default false). */
    readonly schedules?: boolean
    /** A database another test server already seeded: reuse its keys instead of seeding again. */
    readonly seeded?: Keys
    /** Replace services of the built storage (to make one fail, for instance). */
    readonly override?: (context: Context.Context<StorageLayer.Storage>) => Context.Context<StorageLayer.Storage>
    /** The port to listen on (default 0: any free one). */
    readonly port?: number
    /** Single sign-on settings (default: none, whatever the environment says). */
    readonly oidc?: Option.Option<OidcSettings>
    /** Metrics settings (default: FLAGPORT_METRICS*, off when unset). */
    readonly metrics?: MetricsSettings
    /** Log format and the request lines' sink (default: FLAGPORT_LOG_FORMAT, stdout). */
    readonly logFormat?: LogFormat
    readonly requestLog?: (line: string) => void
  } = {}
): Promise<TestServer> => {
  const runtime = ManagedRuntime.make(storage)
  const run = <A, E>(effect: Effect.Effect<A, E, StorageLayer.Storage>) => runtime.runPromise(effect)
  try {
    const context: Context.Context<StorageLayer.Storage> = await run(Effect.context<StorageLayer.Storage>())
    const keys = options.seeded ?? (await run(seed))
    const server = await startStandalone({
      port: options.port ?? 0,
      host: "127.0.0.1",
      storage: Layer.succeedContext(options.override === undefined ? context : options.override(context)),
      webhooks: options.webhooks ?? false,
      schedules: options.schedules ?? false,
      ...(options.lane === undefined ? {} : { lane: options.lane }),
      oidc: options.oidc ?? Option.none(),
      ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      ...(options.logFormat === undefined ? {} : { logFormat: options.logFormat }),
      ...(options.requestLog === undefined ? {} : { requestLog: options.requestLog })
    })
    return {
      url: server.url,
      keys,
      server,
      run,
      close: async () => {
        await server.close()
        await runtime.dispose()
      },
      closeStorage: () => runtime.dispose()
    }
  } catch (error) {
    await runtime.dispose()
    throw error
  }
}

export const seed = Effect.gen(function* () {
  const projects = yield* Projects
  const envs = yield* Environments
  const apiKeys = yield* ApiKeys
  for (const id of ["p1", "p2"]) {
    yield* projects.create({ id, name: `Project ${id}` })
    yield* envs.create(id, { key: "development", name: "Development" })
    yield* envs.create(id, { key: "production", name: "Production" })
  }
  const make = (type: "server" | "client", projectId: string | null, environment: string | null = null) =>
    Effect.map(apiKeys.create({ type, projectId, environment }), (created) => created.secret)
  const revoked = yield* apiKeys.create({ type: "server", projectId: null })
  yield* apiKeys.revoke(revoked.apiKey.id)
  const unscopedClient = "cli_unscoped-legacy-key"
  yield* (yield* ApiKeyRepository).insert(
    {
      id: "legacy-unscoped-client",
      type: "client",
      projectId: null,
      environment: null,
      name: "legacy",
      prefix: unscopedClient.slice(0, 8),
      createdAt: new Date().toISOString(),
      createdBy: null,
      lastUsedAt: null,
      revokedAt: null
    },
    hashSecret(nodeCrypto, unscopedClient)
  )
  const boundToUnknown = "cli_bound-to-a-missing-environment"
  yield* (yield* ApiKeyRepository).insert(
    {
      id: "bound-to-unknown",
      type: "client",
      projectId: "p1",
      environment: "staging",
      name: "bound to unknown",
      prefix: boundToUnknown.slice(0, 8),
      createdAt: new Date().toISOString(),
      createdBy: null,
      lastUsedAt: null,
      revokedAt: null
    },
    hashSecret(nodeCrypto, boundToUnknown)
  )
  return {
    global: yield* make("server", null),
    scoped: yield* make("server", "p1"),
    otherScoped: yield* make("server", "p2"),
    client: yield* make("client", "p1"),
    otherClient: yield* make("client", "p2"),
    unscopedClient,
    revoked: revoked.secret,
    boundClient: yield* make("client", "p1", "development"),
    boundClientOther: yield* make("client", "p1", "production"),
    boundServerOther: yield* make("server", "p1", "production"),
    boundToUnknown
  }
})

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly body: unknown
}

/** One request; `body` objects are sent as JSON with `Content-Type: application/json`. */
export const request = async (
  base: string,
  method: string,
  path: string,
  options: { readonly key?: string; readonly body?: unknown; readonly headers?: Record<string, string> } = {}
): Promise<Reply> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  let body: string | undefined
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body)
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["content-type"] = "application/json"
  }
  const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  const text = await response.text()
  let parsed: unknown = undefined
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, text, body: parsed }
}
