import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Data, Effect, Layer } from "effect"
import { firstStart } from "../FirstStart.js"
import { databaseUrlConfig, redactUrl } from "../../storage/DatabaseUrl.js"
import { note } from "../Output.js"
import * as StorageLayer from "../../storage/StorageLayer.js"

/** The server could not start (port in use, permission denied, ...). */
class ServeError extends Data.TaggedError("ServeError")<{ readonly message: string }> {}

const init = Options.boolean("init").pipe(
  Options.withDescription(
    "First start (what npm start runs): on an empty database, seed it and print SERVER_KEY / CLIENT_KEY / PROJECT_ID once before serving."
  )
)

/**
 * The server as a scoped resource: acquired once listening, released by a graceful close (stop
 * accepting, let in-flight requests finish, stop the webhook dispatcher, close the database).
 * SIGTERM/SIGINT interrupt the command (Main.ts), which runs the release and then exits 0.
 */
const runningServer = (storage: Layer.Layer<StorageLayer.Storage>) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      // Loaded on demand: the HTTP stack is the heaviest import, and no other command needs it.
      try: () => import("../../http/serving/Server.js").then((Server) => Server.startServer({ storage })),
      catch: (cause) => new ServeError({ message: `cannot start the server: ${cause instanceof Error ? cause.message : String(cause)}` })
    }),
    (server) =>
      Effect.gen(function* () {
        yield* note("Shutting down: finishing in-flight requests...")
        yield* Effect.promise(() => server.close())
        yield* note("Stopped.")
      })
  )

export const serve = Command.make("serve", { init }, (options) =>
  Effect.gen(function* () {
    const url = yield* databaseUrlConfig
    // One storage for seeding and serving (opened here, applying migrations; closed after the
    // server has stopped): with `memory:` a second one would be a different, empty store.
    const storage = Layer.succeedContext(yield* Layer.build(StorageLayer.fromDatabaseUrl(url)))
    if (options.init) yield* Effect.provide(firstStart, storage)
    const server = yield* runningServer(storage)
    yield* note(`Flagport listening on ${server.url} (database: ${redactUrl(url)}); API docs at ${server.url}/docs`)
    return yield* Effect.never
  }).pipe(Effect.scoped)
).pipe(
  Command.withDescription(
    "Apply pending migrations and serve the HTTP API on HOST:PORT (default 0.0.0.0:8080) until SIGTERM/SIGINT, then shut down gracefully."
  )
)
