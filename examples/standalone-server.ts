/**
 * The standalone server, started from code: what `npx flagport serve` does, for hosts that want
 * to choose the port, the database or the shutdown themselves.
 *
 *   npx flagport seed                          # once: prints SERVER_KEY / CLIENT_KEY
 *   PORT=8080 npx tsx examples/standalone-server.ts
 *
 * DATABASE_URL selects the database (default sqlite:./data/flagport.db); migrations are applied
 * at start. SIGTERM / SIGINT shut it down gracefully (in-flight requests finish, then the
 * database closes).
 */
import { pathToFileURL } from "node:url"
import { type RunningServer, startServer } from "flagport/server"

export interface Options {
  readonly port?: number
  readonly host?: string
  readonly databaseUrl?: string
}

/** Starts the server; resolves once it accepts connections. `close()` shuts it down gracefully. */
export const start = (options: Options = {}): Promise<RunningServer> =>
  startServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl })
  })

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const server = await start()
  console.log(`Flagport listening on ${server.url} (docs: ${server.url}/docs)`)
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.once("SIGTERM", stop)
  process.once("SIGINT", stop)
}
