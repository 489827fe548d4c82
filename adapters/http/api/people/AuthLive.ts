/**
 * The sign-in handlers (AuthGroup.ts): each is a call to a use case (SignIn, Sessions, Users), its
 * failures mapped by the one mapping of `Errors.ts`. Signing in sets the session cookie
 * (SessionCookie.ts); signing out clears it.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { normalizeEmail } from "../../../../src/domain/people/User.js"
import { DeviceTrust } from "../../../../src/services/people/DeviceTrust.js"
import { Sessions } from "../../../../src/services/people/Sessions.js"
import { SignIn } from "../../../../src/services/people/SignIn.js"
import { Users } from "../../../../src/services/people/Users.js"
import * as Oidc from "../../../oidc/Oidc.js"
import type { RateLimited, ServiceUnavailable } from "../../../../src/domain/Errors.js"
import { BUSY_RETRY_AFTER_SECONDS } from "../../../../src/domain/people/SignInLoad.js"
import { Authentication } from "../../shared/Authentication.js"
import { clientAddress } from "../../shared/TrustProxy.js"
import { cookieFor, crossSiteRefusal } from "../../shared/PeopleSettings.js"
import { deviceCookieName, deviceCookieOf, deviceCookieOptions } from "../../shared/DeviceCookieHeader.js"
import { clearSessionCookie, hasSessionCookie, sessionTokenOf, setSessionCookie } from "../../shared/SessionCookie.js"
import { FlagportApi } from "../Api.js"
import { headersOf, peerOf } from "../Auth.js"
import { asEnvelopes } from "../Calling.js"

const withHeader = (name: string, value: string) =>
  HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, name, value)))

/**
 * Sign-in CSRF: a page of another site must not sign a visitor's browser into an account of its
 * choosing. A request that says where it comes from (browsers always do on POST) must come from
 * here; one without `Origin` is no browser's and carries no cookie of ours to abuse.
 */
const sameOriginIfSaid = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(Authentication, (auth) => {
    const headers = headersOf(request)
    if (headers.origin === undefined) return Effect.void
    const refused = crossSiteRefusal(auth.people.settings, "POST", headers, peerOf(request))
    return refused === undefined ? Effect.void : Effect.fail(refused)
  })

/**
 * Starts a session for the person, sets its cookie on the answer and answers the person as every
 * later request sees them: read back through the new session, so `lastSignInAt` is this sign-in
 * (the user the sign-in found still carries the one before) and the memberships are current.
 */
const signIn = (userId: string) =>
  Effect.gen(function* () {
    const auth = yield* Authentication
    const request = yield* HttpServerRequest.HttpServerRequest
    const sessions = yield* Sessions
    const session = yield* sessions.start(userId).pipe(Effect.orDie) // the user was just found: a 404 here is a bug
    const me = yield* sessions.authenticate(session.token).pipe(Effect.orDie, Effect.flatMap(Option.match({
      onNone: () => Effect.dieMessage("A session just started was not found"),
      onSome: Effect.succeed
    })))
    // The answer names the person and starts their session: no cache keeps it.
    yield* withHeader("cache-control", "no-store")
    const cookie = cookieFor(auth.people.settings, headersOf(request), peerOf(request))
    yield* withHeader("set-cookie", setSessionCookie(cookie, session.token))
    // The browser signed in with a password: its next sign-in as this person takes the device
    // lane (DeviceTrust). Without a signing key at hand (a database hiccup), it just gets none.
    const device = yield* Effect.flatMap(DeviceTrust, (devices) => devices.issue(normalizeEmail(me.user.email))).pipe(Effect.option)
    if (Option.isSome(device)) {
      yield* HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.unsafeSetCookie(response, deviceCookieName(cookie), device.value, deviceCookieOptions(cookie))))
    }
    return me
  })

/** The request's device cookie (DeviceTrust decides what it is worth). */
const deviceCookieIn = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(Authentication, (auth) => {
    const headers = headersOf(request)
    return deviceCookieOf(cookieFor(auth.people.settings, headers, peerOf(request)), headers.cookie)
  })

/** The 429 of too many sign-ins carries `Retry-After` (whole seconds, at least 1). */
const withRetryAfter = <E extends { readonly retryAfterSeconds: number }>(error: E) =>
  Effect.zipRight(withHeader("retry-after", String(Math.max(1, Math.ceil(error.retryAfterSeconds)))), Effect.fail(error))

/** The 503 of a full password hashing queue: the queue drains within a second. */
const busyRetryAfter = (error: ServiceUnavailable) =>
  Effect.zipRight(withHeader("retry-after", String(BUSY_RETRY_AFTER_SECONDS)), Effect.fail(error))

/** The client's address (behind trusted proxies, the one they report): what sign-in attempts are counted by. */
const clientOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(Authentication, (auth) => clientAddress(auth.people.settings.trustProxy, peerOf(request), request.headers["x-forwarded-for"]))

/** A sign-in or setup's refusals with the headers that tell a client when to come back. */
const withRetryHeaders = <A, E, R>(attempt: Effect.Effect<A, E | RateLimited | ServiceUnavailable, R>) =>
  attempt.pipe(
    Effect.catchIf((error): error is RateLimited => (error as { _tag?: unknown })._tag === "RateLimited", withRetryAfter),
    Effect.catchIf((error): error is ServiceUnavailable => (error as { _tag?: unknown })._tag === "ServiceUnavailable", busyRetryAfter)
  )

export const AuthLive = HttpApiBuilder.group(FlagportApi, "auth", (handlers) =>
  handlers
    .handle("login", ({ payload }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* sameOriginIfSaid(request)
        const signInWith = yield* SignIn
        const client = yield* clientOf(request)
        const device = yield* deviceCookieIn(request)
        const found = yield* asEnvelopes(withRetryHeaders(signInWith.withPassword(payload.email, payload.password, client, device)))
        return yield* signIn(found.user.id)
      })
    )
    .handle("logout", () =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const auth = yield* Authentication
        const headers = headersOf(request)
        const cookie = cookieFor(auth.people.settings, headers, peerOf(request))
        if (hasSessionCookie(cookie, headers.cookie)) {
          // Signing a person out is a write by cookie like any other: not from another site.
          const refused = crossSiteRefusal(auth.people.settings, request.method, headers, peerOf(request))
          if (refused !== undefined) return yield* Effect.fail(refused)
          const token = sessionTokenOf(cookie, headers.cookie)
          if (token !== undefined) yield* Effect.flatMap(Sessions, (sessions) => sessions.end(token)).pipe(Effect.orDie)
        }
        yield* withHeader("set-cookie", clearSessionCookie(cookie))
      })
    )
    .handle("setup", ({ payload }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        yield* sameOriginIfSaid(request)
        const users = yield* Users
        const client = yield* clientOf(request)
        const user = yield* asEnvelopes(withRetryHeaders(users.setup(payload.token, payload.password, client)))
        return yield* signIn(user.id)
      })
    )
    .handle("providers", () => Effect.map(Oidc.Oidc, (oidc) => ({ password: true as const, oidc: Oidc.providerOf(oidc) })))
)
