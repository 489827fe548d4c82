/**
 * Mounting Flagport in a Fastify application under `/flags`.
 *
 *   npx flagport seed                          # once: prints SERVER_KEY / CLIENT_KEY
 *   PORT=3000 npx tsx examples/mount-fastify.ts
 *   curl -H "Authorization: Bearer $SERVER_KEY" http://localhost:3000/flags/v1/projects
 *
 * Flagport writes its answers to the node response itself, so the route hijacks the reply. By the
 * time a route runs, Fastify has read and parsed the request body: hand it on as the handler's
 * third argument (`request.body`), else a POST has no body left to read (an immediate 500 says so).
 * `/flags/` leads to the dashboard.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify"
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
  readonly app: FastifyInstance
  readonly close: () => Promise<void>
}

export const start = async (options: Options = {}): Promise<Host> => {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? "sqlite:./data/flagport.db"
  const flagport = await makeHandlers({ prefix: PREFIX, services: servicesLayer(fromDatabaseUrl(databaseUrl)) })

  const app = Fastify()
  const mount = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack()
    flagport.node(request.raw, reply.raw, request.body)
  }
  app.all(PREFIX, mount)
  app.all(`${PREFIX}/*`, mount)
  // The host's own routes.
  app.get("/", async (_request, reply) => reply.type("text/plain").send("Hello from the Fastify application\n"))
  app.post("/echo", async (request) => ({ received: request.body }))

  const host = options.host ?? "127.0.0.1"
  await app.listen({ port: options.port ?? 0, host })
  const address = app.server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://${host}:${port}`,
    app,
    close: async () => {
      // Open change streams never end on their own: end them first, then let the server drain.
      flagport.closeStreams()
      await app.close()
      await flagport.dispose()
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const host = await start({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? "127.0.0.1" })
  console.log(`Fastify app on ${host.url}; Flagport under ${host.url}${PREFIX} (docs: ${host.url}${PREFIX}/docs)`)
  const stop = () => void host.close().then(() => process.exit(0))
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}
