import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StreamSecret } from "../../src/ports/StreamSecret.js"

/**
 * A stream-token secret for one in-memory database: 32 bytes from the platform's CSPRNG
 * (WebCrypto, as in Node and browsers), made when the layer is built and gone with it.
 */
export const layer: Layer.Layer<StreamSecret> = Layer.sync(StreamSecret, () => {
  const secret = globalThis.crypto.getRandomValues(new Uint8Array(32))
  return StreamSecret.of({ get: Effect.succeed(secret) })
})
