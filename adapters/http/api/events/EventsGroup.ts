/** The declaration of `GET /v1/projects/{projectId}/events`, the management events stream (EventsLive.ts answers it). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import * as Errors from "../../shared/Errors.js"
import { described, projectId } from "../Declaring.js"
import { ManagementAuth } from "../Security.js"

export const EventsHeaders = Schema.Struct({
  "last-event-id": Schema.optional(Schema.String.annotations({
    description: "The id of the last event received (a browser's EventSource sends it when it reconnects): the stream starts after it, so nothing written meanwhile is missed."
  }))
})

/** The stream is text; each `change` event's data is a `ManagementEvent` (JSON Schema's `contentSchema` says so). */
const declareEventData = (operation: Record<string, any>): Record<string, any> => {
  const content = operation.responses?.["200"]?.content?.["text/event-stream"]
  if (content?.schema !== undefined) {
    content.schema = { ...content.schema, contentMediaType: "text/event-stream", contentSchema: { $ref: "#/components/schemas/ManagementEvent" } }
  }
  return operation
}

export class EventsGroup extends HttpApiGroup.make("events")
  .add(described(
    HttpApiEndpoint.get("stream")`/v1/projects/${projectId}/events`
      .setHeaders(EventsHeaders)
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/event-stream" })).annotations({
        description: "Server-Sent Events. First `event: ready` (`id:` the position the stream starts after, `data: {\"id\":\"<position>\"}`), then one `event: change` per write to the project, its `data` a `ManagementEvent` (components) and its `id` the event's `id`; a `: ping` comment every 15 s."
      }))
      .addError(Errors.NotFound)
      .addError(Errors.TooManyRequests),
    "Follow a project's changes (Server-Sent Events)",
    "Every management write to the project (flags, targeting, segments, environments, schedules, change requests, keys, webhooks, members), from every server process, as it is committed: what changed (`kind`, `resource`, `flagKeys`, `environments`), the new versions (`version`, `configVersions`), who (`actor`) and when (`at`). For dashboards and tools that must show what others change; applications follow `GET /v1/stream` instead. A key bound to an environment is sent the changes of that environment and of none (not an unbound key's), `environments` and `configVersions` narrowed to it. A server key of the project or a global one, or a person's session with read permission in the project. Without `Last-Event-ID` the stream starts at the project's latest write; with it, after that event (an id above the latest counts as the latest). The stream ends when its key is revoked, its session ends or its person loses access to the project (within 1 s, on every process), and at shutdown; clients reconnect with `Last-Event-ID` (EventSource does so itself). Events of writes that commit out of order may arrive out of id order; ids never repeat. 429 with `Retry-After` when the server key or person (all their sessions together), the client address or the server already holds as many open event streams as allowed (FLAGPORT_EVENT_STREAMS_PER_CALLER, default 20; FLAGPORT_STREAMS_PER_ADDRESS, 500, the client behind a proxy named in FLAGPORT_TRUST_PROXY; FLAGPORT_STREAMS_MAX, 10,000), counted apart from `GET /v1/stream`."
  ).annotate(OpenApi.Transform, declareEventData))
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "Management events: a live feed of a project's changes, for dashboards.") {}
