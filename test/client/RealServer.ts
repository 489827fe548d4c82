/**
 * A real Flagport (the standalone composition) on a SQLite file for the SDK and provider tests,
 * with the management calls those tests make (flags, targeting, segments, keys made and revoked,
 * an environment's `clientConfig`), and a way to stop it and start it again on the same port and
 * database.
 */
import { Effect, Exit, Scope } from "effect"
import { startServer as startStandalone, type RunningServer } from "../../adapters/http/serving/Server.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { freshSqliteFile } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

export interface Flagport {
  readonly url: string
  readonly port: number
  /** A server key for project p1 and a client key for p1. */
  readonly serverKey: string
  readonly clientKey: string
  readonly globalKey: string
  /** Creates a flag with variations in project p1. */
  readonly createFlag: (key: string, type: string, variations: ReadonlyArray<{ key: string; value: unknown }>) => Promise<void>
  /** PUT targeting in p1 for `environment` (default production). */
  readonly target: (flagKey: string, targeting: Record<string, unknown>, environment?: string) => Promise<void>
  readonly createSegment: (key: string, conditions: ReadonlyArray<unknown>) => Promise<void>
  /** Makes a key of p1 through the key API: its id (to revoke it) and its secret. */
  readonly createKey: (type: "server" | "client") => Promise<{ readonly id: string; readonly key: string }>
  /** Revokes a key of p1 (`DELETE /v1/projects/p1/keys/{id}`). */
  readonly revokeKey: (id: string) => Promise<void>
  /** What client keys may read in `environment` of p1: the configuration (`full`) or evaluated answers only. */
  readonly setClientConfig: (environment: string, clientConfig: "full" | "evaluated") => Promise<void>
  /** Stops the HTTP server and closes the database. */
  readonly stop: () => Promise<void>
  /** Starts it again over the same database file, on the same port or on `port`. */
  readonly restart: (port?: number) => Promise<void>
  readonly close: () => Promise<void>
}

const expectOk = async (what: string, reply: Promise<{ status: number; text: string }>) => {
  const { status, text } = await reply
  if (status >= 300) throw new Error(`${what}: ${status} ${text}`)
}

export const startFlagport = async (): Promise<Flagport> => {
  const scope = Effect.runSync(Scope.make())
  const file = await Effect.runPromise(Scope.extend(freshSqliteFile, scope))
  const databaseUrl = `sqlite:${file}`
  let first: TestServer | undefined = await startServer(StorageLayer.fromDatabaseUrl(databaseUrl))
  let again: RunningServer | undefined
  const port = first.server.port
  const url = `http://127.0.0.1:${port}`
  const admin = { key: first.keys.global }
  const stop = async () => {
    await first?.close()
    first = undefined
    await again?.close()
    again = undefined
  }
  return {
    url,
    port,
    serverKey: first.keys.scoped,
    clientKey: first.keys.client,
    globalKey: first.keys.global,
    createFlag: (key, type, variations) =>
      expectOk(`create ${key}`, request(url, "POST", "/v1/projects/p1/flags", { ...admin, body: { key, type, variations } })),
    target: (flagKey, targeting, environment = "production") =>
      expectOk(`target ${flagKey}`, request(url, "PUT", `/v1/projects/p1/flags/${flagKey}/targeting`, { ...admin, body: { environment, ...targeting } })),
    createSegment: (key, conditions) =>
      expectOk(`segment ${key}`, request(url, "POST", "/v1/projects/p1/segments", { ...admin, body: { key, name: key, conditions } })),
    createKey: async (type) => {
      const made = await request(url, "POST", "/v1/projects/p1/keys", { ...admin, body: { type, name: `sdk test ${type}` } })
      if (made.status !== 201) throw new Error(`create key: ${made.status} ${made.text}`)
      const { id, key } = made.body as { id: string; key: string }
      return { id, key }
    },
    revokeKey: (id) => expectOk(`revoke ${id}`, request(url, "DELETE", `/v1/projects/p1/keys/${id}`, admin)),
    setClientConfig: (environment, clientConfig) =>
      expectOk(`clientConfig ${environment}`, request(url, "PATCH", `/v1/projects/p1/environments/${environment}`, { ...admin, body: { clientConfig } })),
    stop,
    restart: async (on = port) => {
      again = await startStandalone({ port: on, host: "127.0.0.1", storage: StorageLayer.fromDatabaseUrl(databaseUrl), webhooks: false })
    },
    close: async () => {
      await stop()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}
