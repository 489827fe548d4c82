/**
 * How the HttpApi side answers the routes the evaluation lane owns: it calls the same lane methods
 * (through the shared `EvaluationLaneService` tag) and sends their answers as they are, so both
 * paths answer alike.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { Authentication } from "../../shared/Authentication.js"
import * as Errors from "../../shared/Errors.js"
import { EvaluationLaneService, type EvaluationLaneShape, type LaneRequest, type LaneResponse, type OfrepRoute } from "../../shared/EvaluationLaneService.js"
import { EVENT_STREAM_HEADERS, type StreamOpening } from "../../shared/EventStream.js"

/** A lane answer as an HttpServerResponse (bytes, status and headers as the evaluation lane writes them). */
const toServerResponse = (response: LaneResponse): HttpServerResponse.HttpServerResponse =>
  response.stream !== undefined
    ? HttpServerResponse.stream(eventStream(response.stream), { status: response.status, headers: response.headers, contentType: EVENT_STREAM_HEADERS["content-type"] })
    : response.body === undefined
    ? HttpServerResponse.empty({ status: response.status, headers: response.headers })
    : typeof response.body === "string"
    ? HttpServerResponse.text(response.body, { status: response.status, headers: response.headers, contentType: "application/json" })
    : HttpServerResponse.uint8Array(response.body, { status: response.status, headers: response.headers, contentType: response.headers["content-type"] ?? "application/json" })

const encoder = new TextEncoder()

/** A lane stream as an Effect Stream of bytes; its end (the client went away) detaches it. */
const eventStream = (opening: StreamOpening): Stream.Stream<Uint8Array> =>
  Stream.async<Uint8Array, never, never>((emit) => {
    const detach = opening.start({
      write: (chunk) => void emit.single(encoder.encode(chunk)),
      end: () => void emit.end()
    })
    return Effect.sync(detach)
  })

const isConflict = (error: Errors.ApiError): error is Errors.Conflict => error instanceof Errors.Conflict

/**
 * The lane's answer, or its failure as the envelope. Evaluation never conflicts (the group does
 * not declare 409): a conflict would be a bug, so it becomes a defect (logged, answered 500).
 */
export const viaLane = (f: (lane: EvaluationLaneShape) => LaneResponse | Promise<LaneResponse>) =>
  Effect.flatMap(Effect.all([EvaluationLaneService, Authentication]), ([lane, auth]) =>
    Effect.tryPromise({ try: async () => f(lane), catch: (error) => auth.toApiError(error) }).pipe(
      Effect.catchIf(isConflict, Effect.die),
      Effect.map(toServerResponse)
    )
  )

const hostOfUrl = (url: string): string | undefined => (URL.canParse(url) ? new URL(url).host : undefined)

/** An HttpApi request as the lane reads it (the body as bytes: OFREP decodes its own). */
const laneRequestOf = (request: HttpServerRequest.HttpServerRequest): LaneRequest => {
  const q = request.url.indexOf("?")
  return {
    query: q === -1 ? "" : request.url.slice(q + 1),
    // A web Request carries its host in the URL (fetch never sets Host), e.g. for OFREP's stream URLs.
    header: (name) => request.headers[name] ?? (name === "host" ? hostOfUrl(request.originalUrl) : undefined),
    body: () => Effect.runPromise(Effect.map(request.arrayBuffer, (buffer) => new Uint8Array(buffer))),
    remoteAddress: Option.getOrUndefined(request.remoteAddress)
  }
}

/** The OFREP routes, answered whole by the lane (authentication, CORS, OFREP's error bodies), as on the lane. */
export const viaLaneRaw = (route: OfrepRoute, request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(EvaluationLaneService, (lane) =>
    // The lane answers every failure itself, in OFREP's bodies: a rejection here is a defect.
    Effect.promise(async () => lane.answer(route, laneRequestOf(request))).pipe(Effect.map(toServerResponse))
  )
