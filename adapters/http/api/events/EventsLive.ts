/**
 * `GET /v1/projects/{projectId}/events`: the management events stream (EventsHub.ts, through the
 * layer of ManagementEvents.ts), behind the management security middleware (a key, or a person's
 * session; `read` in the project). Open streams are bounded per server key or person (all their
 * sessions together: FLAGPORT_EVENT_STREAMS_PER_CALLER, small), per client address (behind a
 * trusted proxy, the address it reports) and in all, counted apart from the change streams
 * (StreamLimits.ts).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { Reader } from "../../../../src/domain/auth/AuditDisclosure.js"
import { actingAs } from "../../../../src/domain/auth/Caller.js"
import { Audit } from "../../../../src/services/audit/Audit.js"
import { Authentication, authenticateRequest } from "../../shared/Authentication.js"
import * as Errors from "../../shared/Errors.js"
import { EVENT_STREAM_HEADERS, type StreamOpening } from "../../shared/EventStream.js"
import { runtimeBridge } from "../../shared/RuntimeBridge.js"
import { COOKIE_NAME, SECURE_COOKIE_NAME, sessionTokenOf } from "../../shared/SessionCookie.js"
import { RETRY_AFTER_SECONDS } from "../../shared/StreamLimits.js"
import { clientAddress } from "../../shared/TrustProxy.js"
import { FlagportApi } from "../Api.js"
import { headersOf, peerOf } from "../Auth.js"
import { mapped } from "../Calling.js"
import { ManagementAccess } from "../Security.js"
import { ManagementEvents } from "./ManagementEvents.js"

/** Where a stream starts: after `Last-Event-ID` when it is a position at or below the latest, else at the latest. */
export const startOf = (lastEventId: string | undefined, latest: number): number => {
  if (lastEventId === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(lastEventId.trim())) return latest
  return Math.min(Number(lastEventId.trim()), latest)
}

/**
 * Whether the request's credentials may still follow the project's events (401, or the use case's
 * 403/404 now: no; nor when they now read more or less of them than when the stream opened). A recheck is no activity of the person: it leaves the session's idle clock
 * running, so the stream of a tab left open ends when its session idles out.
 */
const stillAllowed = (request: HttpServerRequest.HttpServerRequest, projectId: string, startedAs: Reader) =>
  authenticateRequest(headersOf(request), peerOf(request), "recheck").pipe(
    Effect.flatMap(({ actor, caller }) => Effect.flatMap(Audit, (audit) => actingAs(caller, actor)(audit.mayFollow(projectId, startedAs)))),
    // A failing key store is not a revocation: the stream stays (the failure is logged).
    Effect.catchIf((error): error is Errors.Unauthorized => error instanceof Errors.Unauthorized, () => Effect.succeed(false))
  )

/**
 * What a stream's recheck is shared by: the key (its id), or the session token. In memory only,
 * never logged. Never the raw header text: a caller varying an extra cookie would otherwise make
 * each of its streams a credential of its own, each looked up every second.
 */
export const recheckKeyOf = (keyId: string | undefined, cookieHeader: string | undefined): string => {
  if (keyId !== undefined) return `key:${keyId}`
  const token = sessionTokenOf({ name: COOKIE_NAME, secure: false }, cookieHeader) ??
    sessionTokenOf({ name: SECURE_COOKIE_NAME, secure: true }, cookieHeader)
  return `session:${token ?? ""}`
}

const encoder = new TextEncoder()

const eventStream = (opening: StreamOpening): Stream.Stream<Uint8Array> =>
  Stream.async<Uint8Array>((emit) => {
    const detach = opening.start({
      write: (chunk) => void emit.single(encoder.encode(chunk)),
      end: () => void emit.end()
    })
    return Effect.sync(detach)
  })

/** 429 in the envelope, with `Retry-After`. */
const tooMany = (message: string) =>
  HttpServerResponse.unsafeJson({ error: Errors.tooManyRequests(message).error }, {
    status: 429,
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) }
  })

export const EventsLive = HttpApiBuilder.group(FlagportApi, "events", (handlers) =>
  handlers.handleRaw("stream", ({ path, request }) =>
    Effect.gen(function* () {
      const access = yield* ManagementAccess
      const { hub, limits } = yield* ManagementEvents
      const auth = yield* Authentication
      const audit = yield* Audit
      const following = yield* mapped(audit.follow(path.projectId))
      const start = startOf(request.headers["last-event-id"], following.from)
      // The holder: the key, or the person (every session of theirs counts together).
      const holder = access.actor.keyId ?? `user:${access.actor.userId ?? ""}`
      const address = clientAddress(auth.people.settings.trustProxy, peerOf(request), request.headers["x-forwarded-for"])
      const over = limits.check(holder, address)
      if (over !== undefined) return tooMany(limits.refusal(over))
      const slot = limits.hold(holder, address)
      const run = (yield* runtimeBridge).run
      const opening = hub.open(path.projectId, start, {
        key: recheckKeyOf(access.actor.keyId, request.headers.cookie),
        check: () => run(stillAllowed(request, path.projectId, following.reader).pipe(Effect.provideService(Authentication, auth), Effect.provideService(Audit, audit))),
        // What the caller sees of each event: a key bound to an environment, its environment's and those of none (Audit.follow).
        view: following.view
      })
      const stream = eventStream(slot.around(opening))
      return HttpServerResponse.stream(stream, { status: 200, headers: EVENT_STREAM_HEADERS, contentType: EVENT_STREAM_HEADERS["content-type"] })
    })
  ))
