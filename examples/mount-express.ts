/**
 * Mounting Flagport in an Express application: `app.use("/flags", flagport.node)`.
 *
 *   npx flagport seed                          # once: prints SERVER_KEY / CLIENT_KEY
 *   PORT=3000 npx tsx examples/mount-express.ts
 *   curl -H "Authorization: Bearer $SERVER_KEY" http://localhost:3000/flags/v1/projects
 *
 * The mount may come before or after the host's body parsers: after `express.json()` (or
 * `express.text()`, `express.raw()`) Flagport takes the body the parser left in `req.body`, with
 * the same validation (test/http/ExpressBodyParsers.test.ts). Express strips the mount path from
 * `req.url`; Flagport's node handler accepts the stripped URL. `/flags/` leads to the dashboard.
 */
import express from "express"
import type { Server } from "node:http"
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
  readonly close: () => Promise<void>
}

export const start = async (options: Options = {}): Promise<Host> => {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? "sqlite:./data/flagport.db"
  const flagport = await makeHandlers({ prefix: PREFIX, services: servicesLayer(fromDatabaseUrl(databaseUrl)) })

  const app = express()
  // The host's body parser first, as most apps have it: Flagport takes the parsed req.body.
  app.use(express.json())
  app.use(PREFIX, flagport.node)
  app.get("/", (_req, res) => {
    res.type("text/plain").send("Hello from the Express application\n")
  })
  app.post("/echo", (req, res) => {
    res.json({ received: req.body })
  })

  const server = await new Promise<Server>((resolve) => {
    const listening: Server = app.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve(listening))
  })
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
  console.log(`Express app on ${host.url}; Flagport under ${host.url}${PREFIX} (docs: ${host.url}${PREFIX}/docs)`)
  const stop = () => void host.close().then(() => process.exit(0))
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}
