/**
 * Test fixtures for the HTTP adapter: the storage services over a chosen backend, a REAL server
 * on port 0 running the standalone composition (lane + HttpApi app), keys made through the
 * ApiKeys service, and a tiny fetch client.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type Context, Effect, Layer, ManagedRuntime } from "effect"
import * as MemoryStorage from "../../adapters/memory/MemoryStorage.js"
import * as MemoryWebhookRepository from "../../adapters/memory/WebhookRepository.js"
import type { HttpServices } from "../../adapters/http/App.js"
import { makeHandlers, type FlagportHandlers } from "../../adapters/http/Embed.js"
import * as IdGenerator from "../../src/ports/IdGenerator.js"
import { ApiKeys } from "../../src/services/ApiKeys.js"
import * as Core from "../../src/services/Core.js"
import { Projects } from "../../src/services/Projects.js"
import { Environments } from "../../src/services/Environments.js"
import * as Webhooks from "../../src/services/Webhooks.js"

/** Every service the HTTP adapter needs, in memory. */
export const memoryServices: Layer.Layer<HttpServices> = Layer.mergeAll(Core.layer, Webhooks.layer).pipe(
  Layer.provide(Layer.mergeAll(MemoryWebhookRepository.layer, IdGenerator.layer)),
  Layer.provideMerge(MemoryStorage.layer)
) as Layer.Layer<HttpServices>

export interface Keys {
  readonly global: string
  readonly scoped: string
  readonly otherScoped: string
  readonly client: string
  readonly otherClient: string
  readonly unscopedClient: string
  readonly revoked: string
}

export interface TestServer {
  readonly url: string
  readonly keys: Keys
  readonly handlers: FlagportHandlers
  readonly run: <A, E>(effect: Effect.Effect<A, E, HttpServices>) => Promise<A>
  readonly close: () => Promise<void>
}

/**
 * Starts the API on a real port over `services`, with projects `p1` and `p2` (environments
 * `development` and `production`) and one key of every kind.
 */
export const startServer = async (
  services: Layer.Layer<HttpServices, unknown> = memoryServices,
  options: { readonly prefix?: string } = {}
): Promise<TestServer> => {
  const runtime = ManagedRuntime.make(services)
  const context: Context.Context<HttpServices> = await runtime.runPromise(Effect.context<HttpServices>())
  const run = <A, E>(effect: Effect.Effect<A, E, HttpServices>) => runtime.runPromise(effect)
  const keys = await run(
    Effect.gen(function* () {
      const projects = yield* Projects
      const envs = yield* Environments
      const apiKeys = yield* ApiKeys
      for (const id of ["p1", "p2"]) {
        yield* projects.create({ id, name: `Project ${id}` })
        yield* envs.create(id, { key: "development", name: "Development" })
        yield* envs.create(id, { key: "production", name: "Production" })
      }
      const make = (type: "server" | "client", projectId: string | null) =>
        Effect.map(apiKeys.create({ type, projectId }), (k) => k)
      const revoked = yield* make("server", null)
      yield* apiKeys.revoke(revoked.apiKey.id)
      return {
        global: (yield* make("server", null)).secret,
        scoped: (yield* make("server", "p1")).secret,
        otherScoped: (yield* make("server", "p2")).secret,
        client: (yield* make("client", "p1")).secret,
        otherClient: (yield* make("client", "p2")).secret,
        unscopedClient: "",
        revoked: revoked.secret
      }
    })
  )
  const handlers = await makeHandlers({ services: Layer.succeedContext(context), ...options })
  const server: Server = createServer(handlers.node)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}${options.prefix ?? ""}`,
    keys,
    handlers,
    run,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await handlers.dispose()
      await runtime.dispose()
    }
  }
}

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
