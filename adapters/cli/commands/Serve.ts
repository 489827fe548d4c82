import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { firstStart } from "../FirstStart.js"
import { databaseUrlConfig, redactUrl } from "../../storage/DatabaseUrl.js"
import { note, printLines } from "../Output.js"
import { openableUrl, publicUrlOr, setupUrlLine } from "../PublicAddress.js"
import * as StorageLayer from "../../app/Composition.js"
import { stopsOnSignal } from "../Progress.js"

/** The server could not start (port in use, permission denied, ...). */
class ServeError extends Data.TaggedError("ServeError")<{ readonly message: string }> {}

const port = Options.integer("port").pipe(
  Options.withPseudoName("PORT"),
  Options.withDescription("Port to listen on (default: PORT, else 8080; 0 picks a free one)."),
  Options.optional
)

const host = Options.text("host").pipe(
  Options.withPseudoName("HOST"),
  Options.withDescription("Interface to listen on (default: HOST, else 0.0.0.0, every interface)."),
  Options.optional
)

const init = Options.boolean("init").pipe(
  Options.withDescription(
    "First start (what npm start runs): on an empty database, seed it and print SERVER_KEY / CLIENT_KEY / PROJECT_ID once before serving, then SETUP_URL for the first global admin (admin@localhost)."
  )
)

/**
 * The server as a scoped resource: acquired once listening, released by a graceful close (stop
 * accepting, let in-flight requests finish, stop the webhook dispatcher, close the database).
 * SIGTERM/SIGINT interrupt the command (Main.ts), which runs the release and then exits 0
 * (`stopsOnSignal`: for serve a signal is no interruption of work).
 */
const runningServer = (storage: Layer.Layer<StorageLayer.Storage>, listen: { readonly port?: number; readonly host?: string }) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      // Loaded on demand: the HTTP stack is the heaviest import, and no other command needs it.
      try: () => import("../../http/serving/Server.js").then((Server) => Server.startServer({ storage, ...listen })),
      catch: (cause) => new ServeError({ message: `cannot start the server: ${cause instanceof Error ? cause.message : String(cause)}` })
    }),
    (server) =>
      Effect.gen(function* () {
        yield* note("Shutting down: finishing in-flight requests...")
        yield* Effect.promise(() => server.close())
        yield* note("Stopped.")
      })
  )

export { openableUrl } from "../PublicAddress.js"

export const serve = Command.make("serve", { init, port, host }, (options) =>
  Effect.gen(function* () {
    // A signal is how a server is meant to stop: a graceful shutdown, exit 0 (Main.ts).
    yield* stopsOnSignal
    const url = yield* databaseUrlConfig
    // One storage for seeding and serving (opened here, applying migrations; closed after the
    // server has stopped): with `memory:` a second one would be a different, empty store. Built
    // with the settings the use cases read when built (the sessions' idle period, the stale period).
    const storage = Layer.succeedContext(
      yield* Layer.build(StorageLayer.fromDatabaseUrl(url).pipe(Layer.provide(StorageLayer.settingsLayerConfig)))
    )
    const first = options.init ? yield* Effect.provide(firstStart, storage) : null
    const server = yield* runningServer(storage, {
      ...Option.match(options.port, { onNone: () => ({}), onSome: (port) => ({ port }) }),
      ...Option.match(options.host, { onNone: () => ({}), onSome: (host) => ({ host }) })
    })
    // Where a person opens it: FLAGPORT_PUBLIC_URL when set (the origin sign-in accepts writes
    // from, so a page opened at localhost instead would have its writes refused), else the
    // server's own address, known once listening (even for --port 0).
    const open = yield* publicUrlOr(openableUrl(server.host, server.port))
    // The first admin's link, after the key lines.
    if (first !== null && first.setupToken !== null) yield* printLines([setupUrlLine(open, first.setupToken)])
    yield* note(
      [
        `Flagport is listening on ${server.url.slice("http://".length)} (database: ${redactUrl(url)}).`,
        `  Dashboard: ${open}/ui/  (sign in as a person, or with a server key)`,
        `  API docs:  ${open}/docs`
      ].join("\n")
    )
    return yield* Effect.never
  }).pipe(Effect.scoped)
).pipe(
  Command.withDescription(
    "Apply pending migrations and serve the HTTP API and the dashboard on --host/--port (default 0.0.0.0:8080) until SIGTERM/SIGINT, then shut down gracefully."
  )
)
