/**
 * The body of a key list upload as a stream. Node's request is read through an iterator that does
 * not destroy it when the reading stops early: a refused upload (a key too long on line 12) is
 * answered with its 400 while node drains what the client still sends, instead of a reset
 * connection and no answer at all (the platform's own `request.stream` destroys its source). Other
 * sources (a web `Request`) are read as the platform reads them.
 */
import type { HttpServerRequest } from "@effect/platform"
import { IncomingMessage } from "node:http"
import * as Stream from "effect/Stream"

export const uploadBody = <E>(request: HttpServerRequest.HttpServerRequest, broken: (cause: unknown) => E): Stream.Stream<Uint8Array, E> => {
  const source: unknown = request.source
  if (source instanceof IncomingMessage) {
    return Stream.fromAsyncIterable(source.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>, broken)
  }
  return Stream.mapError(request.stream, broken)
}
