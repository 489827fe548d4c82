/**
 * The client's face for hosts written with Effect: a `FlagportClient` service and a scoped layer
 * that starts the client when the layer is built and closes it when its scope closes.
 *
 *   const program = Effect.gen(function* () {
 *     const flags = yield* FlagportClient
 *     return flags.boolean("new-checkout", { key: "user-1" }, false)
 *   })
 *   program.pipe(Effect.provide(FlagportClient.layer({ url, key, environment: "production" })))
 *
 * The service is the same `Client` as `createClient` returns: its evaluations are plain
 * synchronous calls, not effects, because they cannot fail and do no I/O. With the types of
 * `flagport codegen`, `yield* FlagportClient.typed<Flags>()` gives the typed client.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type Client, createClient } from "./Client.js"
import type { ClientOptions } from "./Options.js"
import type { FlagTypes } from "./Types.js"

/** `createClient` refused its options or bootstrap, or the server refused the key, project or environment (the message says which). */
export class FlagportClientError extends Data.TaggedError("FlagportClientError")<{ readonly message: string }> {}

export class FlagportClient extends Context.Tag("@flagport/client/FlagportClient")<FlagportClient, Client>() {
  /** A client for the layer's lifetime. */
  static readonly layer = (options: ClientOptions): Layer.Layer<FlagportClient, FlagportClientError> =>
    Layer.scoped(
      FlagportClient,
      Effect.acquireRelease(
        Effect.tryPromise({
          try: () => createClient(options),
          catch: (error) => new FlagportClientError({ message: error instanceof Error ? error.message : String(error) })
        }),
        (client) => Effect.promise(() => client.close())
      )
    )

  /** The client typed with a project's generated flags: unknown keys and wrong getters do not compile. */
  static readonly typed = <F extends FlagTypes<F>>(): Effect.Effect<Client<F>, never, FlagportClient> =>
    Effect.map(FlagportClient, (client) => client as unknown as Client<F>)
}
