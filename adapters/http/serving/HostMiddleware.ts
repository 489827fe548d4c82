/**
 * `hostMiddleware`: what the node and web handlers (Embed.ts) put in front of the HttpApi app, as
 * an Effect HTTP middleware for a host that serves `layer()` in its own Effect HTTP stack
 * (`HttpApiBuilder.serve(hostMiddleware)`):
 *
 * - the security headers on every answer (shared/SecurityHeaders.ts; an answer's own win),
 * - 405 with `Allow` for a known path asked with a method it does not answer (Methods.ts),
 * - the CORS preflights of the evaluation paths, answered by the lane as the handlers answer
 *   them (the insights report's among them), and CORS on the insights report's answer,
 * - a chunked body (no Content-Length) read here up to the 1 MiB cap, so one past it is a 413 in
 *   the envelope: the platform's own cap on node ends the socket instead, and the client gets a
 *   reset.
 *
 * The lane's other routes stay the HttpApi's (same answers, no fast path): a host wanting the lane
 * uses the handlers. The dashboard is not served here either.
 */
import { IncomingMessage } from "node:http"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { corsOnApi, routeOf } from "../lane/Routes.js"
import { EvaluationLaneService, type EvaluationLaneShape, type LaneResponse } from "../shared/EvaluationLaneService.js"
import { SECURITY_HEADERS } from "../shared/SecurityHeaders.js"
import { readNodeBody, readWebBody } from "./BodyReader.js"
import { isKeyListUpload } from "../shared/Body.js"
import { toWebResponse } from "./LaneResponses.js"
import { methodNotAllowed } from "./Methods.js"

const answer = (response: LaneResponse) => HttpServerResponse.fromWeb(toWebResponse(response))

/** The security headers an answer does not set itself. */
const withSecurityHeaders = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeaders(
    response,
    Object.fromEntries(Object.entries(SECURITY_HEADERS).filter(([name]) => response.headers[name] === undefined))
  )

/** The lane's CORS headers added to an evaluation-side answer of the HttpApi (`Vary` appended). */
const withCors = (lane: EvaluationLaneShape, origin: string | undefined, response: HttpServerResponse.HttpServerResponse) => {
  let out = response
  for (const [name, value] of Object.entries(lane.corsHeaders(origin))) {
    const current = out.headers[name]
    out = HttpServerResponse.setHeader(out, name, name === "vary" && current !== undefined ? `${current}, ${value}` : value)
  }
  return out
}

const isChunked = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["content-length"] === undefined && request.headers["transfer-encoding"] !== undefined

/** What a request answers from its body: taken from the bytes read here. */
const BODY_MEMBERS = ["text", "json", "arrayBuffer", "urlParamsBody", "stream", "multipart", "multipartStream"] as const

/**
 * The request with its chunked body read, capped (node's stream drained past the cap, a web
 * stream cancelled: BodyReader.ts), or the read's failure. The request itself is kept (the server
 * writes the answer through it, with its socket and peer) and only its body and headers are
 * answered from the bytes, with their length. Sources other than node's and the web's are left
 * to the platform's own cap.
 */
const withBodyRead = (request: HttpServerRequest.HttpServerRequest) => {
  const source: unknown = request.source
  const read = source instanceof IncomingMessage ? () => readNodeBody(source) : source instanceof Request ? () => readWebBody(source) : undefined
  if (read === undefined) return Effect.succeed(request)
  return Effect.map(Effect.tryPromise({ try: read, catch: (error) => error }), (bytes): HttpServerRequest.HttpServerRequest => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers)) if (name !== "transfer-encoding") headers.set(name, value)
    headers.set("content-length", String(bytes.byteLength))
    const buffered = HttpServerRequest.fromWeb(
      new Request(new URL(request.url, "http://host.invalid"), { method: request.method, headers, body: bytes as Uint8Array<ArrayBuffer> })
    )
    const members: PropertyDescriptorMap = { headers: { value: buffered.headers } }
    for (const name of BODY_MEMBERS) members[name] = { get: () => buffered[name] }
    return Object.create(request, members) as HttpServerRequest.HttpServerRequest
  })
}

/** The middleware (see the module's comment); it needs the layer's `EvaluationLaneService`. */
export const hostMiddleware = HttpMiddleware.make(<E, R>(app: HttpApp.Default<E, R>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const lane = yield* EvaluationLaneService
    const q = request.url.indexOf("?")
    const path = q === -1 ? request.url : request.url.slice(0, q)
    const origin = request.headers.origin
    const route = routeOf(request.method, path)
    if (route?._tag === "preflight") {
      const response = yield* Effect.promise(async () =>
        lane.answer(route, {
          query: q === -1 ? "" : request.url.slice(q + 1),
          header: (name) => request.headers[name],
          body: () => new Uint8Array(0)
        }))
      return answer(response)
    }
    const notAllowed = methodNotAllowed(request.method, path)
    if (notAllowed !== undefined) return answer(notAllowed)
    const read = isChunked(request) && !isKeyListUpload(request.method, path) ? yield* Effect.either(withBodyRead(request)) : undefined
    if (read?._tag === "Left") return answer(lane.toResponse(read.left))
    // The platform writes the app's answer before a middleware's code after it runs: the headers
    // are added by a pre-response handler, which runs first (error answers included).
    const cors = corsOnApi(request.method, path)
    yield* HttpApp.appendPreResponseHandler((_, response) =>
      Effect.succeed(cors ? withCors(lane, origin, withSecurityHeaders(response)) : withSecurityHeaders(response)))
    return yield* (read === undefined ? app : Effect.provideService(app, HttpServerRequest.HttpServerRequest, read.right))
  }))
