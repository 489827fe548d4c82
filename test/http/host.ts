/**
 * A host application with Flagport mounted: one memory storage seeded with the fixtures' keys,
 * as many handler sets over it as a test wants (`mount`), and the host's own node server on
 * 127.0.0.1 port 0 (`listen`: a plain `(req, res)` listener or an Express app). `close` ends it
 * all: the server, every handler set, the storage.
 */
import { createServer, type RequestListener, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type Context, Effect, Layer, ManagedRuntime } from "effect"
import * as App from "../../adapters/http/serving/App.js"
import { type EmbedOptions, type FlagportHandlers, makeHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { type Keys, seed } from "./fixtures.js"

export interface Host {
  readonly keys: Keys
  readonly context: Context.Context<StorageLayer.Storage>
  readonly run: <A, E>(effect: Effect.Effect<A, E, StorageLayer.Storage>) => Promise<A>
  /** Flagport's handlers over the host's storage (`services` is the host's). */
  readonly mount: (options: Omit<EmbedOptions<never>, "services">) => Promise<FlagportHandlers>
  /** Serves `listener` on 127.0.0.1 port 0; resolves to its base URL. */
  readonly listen: (listener: RequestListener) => Promise<string>
  readonly close: () => Promise<void>
}

export const startHost = async (): Promise<Host> => {
  const storage = ManagedRuntime.make(StorageLayer.memoryStorage)
  const context: Context.Context<StorageLayer.Storage> = await storage.runPromise(Effect.context<StorageLayer.Storage>())
  const keys = await storage.runPromise(seed)
  const services = App.servicesFrom(Layer.succeedContext(context))
  const mounted: Array<FlagportHandlers> = []
  const servers: Array<Server> = []
  return {
    keys,
    context,
    run: (effect) => storage.runPromise(effect),
    mount: async (options) => {
      const handlers = await makeHandlers({ ...options, services })
      mounted.push(handlers)
      return handlers
    },
    listen: async (listener) => {
      const server = createServer(listener)
      servers.push(server)
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    },
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
      for (const handlers of mounted) await handlers.dispose()
      await storage.dispose()
    }
  }
}
