/**
 * One server for the enclosing `describe` (or the whole file): started before its tests, closed
 * after them. The object is returned at once and filled in when the server has started, so tests
 * read `t.url` and `t.keys` as from `startServer`'s answer. Apart from fixtures.ts because it needs
 * vitest's hooks, which scripts and benches that import fixtures.ts cannot load.
 */
import { afterAll, beforeAll } from "vitest"
import type { Layer } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { startServer, type TestServer } from "./fixtures.js"

export const serverForSuite = (storage: Layer.Layer<StorageLayer.Storage, unknown> = StorageLayer.memoryStorage): TestServer => {
  const server = {} as { -readonly [K in keyof TestServer]: TestServer[K] }
  beforeAll(async () => {
    Object.assign(server, await startServer(storage))
  }, 60_000)
  afterAll(async () => {
    await server.close?.()
  })
  return server
}
