/**
 * Mounting Flagport in a Hono application under `/flags`, through the web handler
 * (`Request => Promise<Response>`): `flagport.web(c.req.raw, { remoteAddress })`, the client's
 * address from @hono/node-server's `getConnInfo` (a web Request does not carry it, and the bound on
 * open streams per client address needs it). Hono reads no body unless a route
 * asks for it, so Flagport reads it itself. Served here on Node with @hono/node-server; the same
 * routes work wherever Hono runs on Node. `/flags/` leads to the dashboard.
 *
 *   npx flagport seed                          # once: prints SERVER_KEY / CLIENT_KEY
 *   PORT=3000 npx tsx examples/mount-hono.ts
 *   curl -H "Authorization: Bearer $SERVER_KEY" http://localhost:3000/flags/v1/projects
 */
import { serve, type ServerType } from "@hono/node-server"
import { getConnInfo } from "@hono/node-server/conninfo"
import { type Context, Hono } from "hono"
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
  readonly server: ServerType
  readonly close: () => Promise<void>
}

export const start = async (options: Options = {}): Promise<Host> => {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? "sqlite:./data/flagport.db"
  const flagport = await makeHandlers({ prefix: PREFIX, services: servicesLayer(fromDatabaseUrl(databaseUrl)) })

  const toFlagport = (c: Context) => flagport.web(c.req.raw, { remoteAddress: getConnInfo(c).remote.address })
  const app = new Hono()
  app.all(PREFIX, toFlagport)
  app.all(`${PREFIX}/*`, toFlagport)
  // The host's own routes.
  app.get("/", (c) => c.text("Hello from the Hono application\n"))
  app.post("/echo", async (c) => c.json({ received: await c.req.json() }))

  const host = options.host ?? "127.0.0.1"
  const server = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => resolve(listening))
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://${host}:${port}`,
    server,
    close: async () => {
      // Open change streams never end on their own: end them first, then let the server drain.
      flagport.closeStreams()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await flagport.dispose()
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const host = await start({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? "127.0.0.1" })
  console.log(`Hono app on ${host.url}; Flagport under ${host.url}${PREFIX} (docs: ${host.url}${PREFIX}/docs)`)
  const stop = () => void host.close().then(() => process.exit(0))
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}
