/** The declaration of `GET /v1/stream` (answered by the evaluation lane: lane/StreamRoute.ts). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { ConfigQuery } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described } from "../Declaring.js"
import { declareStreamSecurity } from "../OpenApiDocument.js"

/** The query of `GET /v1/stream`: that of `GET /v1/config`, or a stream token instead of the Authorization header. */
export const StreamQuery = Schema.Struct({
  ...ConfigQuery.fields,
  token: Schema.optional(Schema.String.annotations({
    description: "A stream token (given by the server, e.g. in an OFREP bulk evaluation's `eventStreams`), for clients that cannot send an Authorization header; it names the project and environment."
  }))
}).annotations({ parseOptions: { errors: "all" } })

export const StreamHeaders = Schema.Struct({
  "last-event-id": Schema.optional(Schema.String.annotations({
    description: "The id (config ETag) of the last event received: no event on connect while it is still current."
  }))
})

/** Change notifications (Server-Sent Events). Its own group: it authenticates itself (header or token), so no middleware. */
export class StreamsGroup extends HttpApiGroup.make("streams")
  .add(described(
    HttpApiEndpoint.get("stream", "/v1/stream")
      .setUrlParams(StreamQuery)
      .setHeaders(StreamHeaders)
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" })).annotations({
        description: "Server-Sent Events in the OFREP 0.3.0 format, one per change of the environment's configuration: `id: <config ETag>`, `event: message`, `data: {\"type\":\"refetchEvaluation\",\"etag\":\"<ETag>\",\"lastModified\":<unix seconds>}`; a `: ping` comment every 15 s."
      }))
      .addError(Errors.BadRequest)
      .addError(Errors.Unauthorized)
      .addError(Errors.ForbiddenError)
      .addError(Errors.NotFound)
      .addError(Errors.TooManyRequests),
    "Follow changes of an environment (Server-Sent Events)",
    "Authenticated like `GET /v1/config` (client or server key, same project and environment rules), or with `token` instead of the header. On connect, one event with the current config ETag unless `Last-Event-ID` equals it; then one event per change of the environment's configuration. Refetch `/v1/config` (or re-evaluate) on each event. The stream ends when its key is revoked and when the server shuts down; clients reconnect. 401 for an invalid or expired token. 429 with `Retry-After` when the key, the client address or the server already holds as many open streams as allowed (FLAGPORT_STREAMS_PER_KEY, default 5,000; FLAGPORT_STREAMS_PER_ADDRESS, 500, the client behind a proxy named in FLAGPORT_TRUST_PROXY; FLAGPORT_STREAMS_MAX, 10,000)."
  ).annotate(OpenApi.Transform, declareStreamSecurity))
  .annotate(OpenApi.Description, "Change notifications, for SDKs and OpenFeature (OFREP) providers.") {}
