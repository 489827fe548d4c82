/**
 * The body of `POST /v1/exposures` and `POST /v1/track`, read as the HttpApi reads a payload and
 * decoded by the route's fast decoder (FastIngestDecode.ts) when it is plainly valid, else by the
 * route's schema. The handlers are raw (`handleRaw`) only so that this replaces the HttpApi's own
 * payload decoding: the security middleware (authentication, the 413/415 and nesting checks) still
 * runs first, the schema still gives every 400 (its ParseError refailed by the HttpApi as before),
 * and the success is still encoded by the endpoint's schema.
 */
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as UrlParams from "@effect/platform/UrlParams"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * The payload as `HttpApiBuilder` reads it (its `requestPayload` for a POST): JSON unless the
 * content type says otherwise (only a request announcing no body can get past the middleware
 * with another content type).
 */
const payloadOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown> => {
  const header = request.headers["content-type"]
  const contentType = header ? header.toLowerCase().trim() : "application/json"
  if (contentType.includes("application/json")) return Effect.orDie(request.json)
  if (contentType.includes("x-www-form-urlencoded")) return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord)
  if (contentType.startsWith("text/")) return Effect.orDie(request.text)
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}

/** The request's payload: `fast` when it recognises it, else decoded by `schema` (its ParseError refailed as the HttpApi does, for the same 400). */
export const ingestPayload = <A, I>(
  request: HttpServerRequest.HttpServerRequest,
  fast: (u: unknown) => A | undefined,
  schema: Schema.Schema<A, I>
) => {
  const decode = Schema.decodeUnknown(schema)
  return Effect.flatMap(payloadOf(request), (body) => {
    const decoded = fast(body)
    return decoded === undefined ? Effect.catchIf(decode(body), ParseResult.isParseError, HttpApiDecodeError.refailParseError) : Effect.succeed(decoded)
  })
}
