/**
 * The server a dashboard test file drives: the standalone server (test/http/fixtures.ts) on a
 * fresh SQLite file in a temporary directory of its own, which `close` also removes.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { startServer, type TestServer } from "../http/fixtures.js"

export const startSqliteServer = async (name: string, options: Parameters<typeof startServer>[1] = {}): Promise<TestServer> => {
  const dir = mkdtempSync(join(tmpdir(), `flagport-ui-${name}-`))
  const removeDir = () => rmSync(dir, { recursive: true, force: true })
  let server: TestServer
  try {
    server = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${join(dir, "ui.db")}`), options)
  } catch (error) {
    removeDir()
    throw error
  }
  return {
    ...server,
    close: async () => {
      try {
        await server.close()
      } finally {
        removeDir()
      }
    }
  }
}
