/**
 * Mounting Flagport in a plain `node:http` application under a path prefix: requests under
 * `/flags` go to Flagport (management API, evaluation, /flags/docs, /flags/openapi.json),
 * everything else stays with the host. `/flags/` leads to the dashboard (`/flags/ui/`).
 *
 *   npx flagport seed                          # once: prints SERVER_KEY / CLIENT_KEY
 *   PORT=3000 npx tsx examples/mount-node-http.ts
 *   curl -H "Authorization: Bearer $SERVER_KEY" http://localhost:3000/flags/v1/projects
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"
import { makeHandlers } from "flagport/http"
import { servicesLayer } from "flagport/server"
import { fromDatabaseUrl } from "flagport/storage"

export const PREFIX = "/flags"

export interface Options {
  readonly port?: number
  readonly host?: string
  /** Default: DATABASE_URL, else sqlite:./data/flagport.db. */
  readonly databaseUrl?: string
}

export interface Host {
  readonly url: string
  readonly server: Server
  /** Stops the host server, then Flagport (webhook dispatcher, database). */
  readonly close: () => Promise<void>
}

const underPrefix = (url: string) => url === PREFIX || url.startsWith(`${PREFIX}/`) || url.startsWith(`${PREFIX}?`)

export const start = async (options: Options = {}): Promise<Host> => {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? "sqlite:./data/flagport.db"
  // Opens the database (applying migrations) and starts the webhook dispatcher.
  const flagport = await makeHandlers({ prefix: PREFIX, services: servicesLayer(fromDatabaseUrl(databaseUrl)) })

  const server = createServer((req, res) => {
    if (underPrefix(req.url ?? "/")) return flagport.node(req, res)
    // The host application's own routes.
    res.writeHead(200, { "content-type": "text/plain" })
    res.end("Hello from the host application\n")
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    server,
    close: async () => {
      // Open change streams never end on their own: end them first, then let the server drain.
      flagport.closeStreams()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      })
      await flagport.dispose()
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const host = await start({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? "127.0.0.1" })
  console.log(`Host app on ${host.url}; Flagport under ${host.url}${PREFIX} (docs: ${host.url}${PREFIX}/docs)`)
  const stop = () => void host.close().then(() => process.exit(0))
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}
