/**
 * The security middlewares of the HttpApi lane. They read the RAW Authorization header and
 * decide with `Policy` (the built-in bearer decoder only slices the header and never checks the
 * scheme), through the Effect face of the same `Authentication` layer (and key cache) as the lane
 * routes (shared/Authentication.ts); the management ones take a person's session cookie instead
 * when no key is sent and check the `Origin` of cookie writes (CSRF). Who may do what is no
 * middleware's to decide: the use case each handler calls decides it for the caller authenticated
 * here (services/shared/Authorize.ts), as it does for the CLI and an Effect host.
 * After authentication they check the body headers (413 / 415) and the body's nesting depth (400,
 * before the schemas decode it: their recursion would overflow the stack), so an unauthenticated
 * caller learns nothing about the route beyond "401" and costs no body read.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import { EvaluationAuth, type ManagementAccess, ManagementAuth, SessionAuth, SignInBodyChecks, TopLevelAuth } from "./Security.js"
import { Authentication, authenticateKey, authenticateRequest, authenticateSession } from "../shared/Authentication.js"
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import { crossSiteRefusal, type HeaderBag } from "../shared/PeopleSettings.js"
import { announcesBody, checkBodyHeaders, isKeyListUpload, keyListFormatOf, MAX_JSON_DEPTH, nestsTooDeeply, YAML_BODY_ROUTES } from "../shared/Body.js"
import * as Errors from "../shared/Errors.js"
import { isBodyLimit } from "./Middleware.js"

type SecurityFailure =
  | Errors.BadRequest
  | Errors.Unauthorized
  | Errors.ForbiddenError
  | Errors.PayloadTooLarge
  | Errors.UnsupportedMediaType
  | Errors.InternalError

/** Authentication fails with 401, or 500 when the key store fails (logged by the authenticator). */
const authenticate = (authorization: string | undefined): Effect.Effect<Principal, SecurityFailure, Authentication> =>
  Effect.map(authenticateKey(authorization), Policy.principalOf)

const headerOf = (request: HttpServerRequest.HttpServerRequest) => (name: string): string | undefined => request.headers[name]

/**
 * 413 / 415 from the headers, then the nesting depth of the body text (read once: the platform
 * caches it for the payload decoding that follows; a body past the cap or not UTF-8 gives the
 * same 413 / 400 as that decoding would).
 */
const bodyChecks = (request: HttpServerRequest.HttpServerRequest, routePath?: string): Effect.Effect<void, SecurityFailure> => {
  const header = headerOf(request)
  // A key list upload streams to its handler, unread here (shared/Body.ts, `isKeyListUpload`).
  if (isKeyListUpload(request.method, request.url.split("?")[0]!)) {
    return keyListFormatOf(header("content-type")) === undefined ? Effect.fail(Errors.notKeyListText()) : Effect.void
  }
  const problem = checkBodyHeaders(header, routePath !== undefined && YAML_BODY_ROUTES.has(routePath))
  if (problem !== undefined) return Effect.fail(problem)
  if (!announcesBody(header)) return Effect.void
  return request.text.pipe(
    Effect.mapError((error) => (isBodyLimit(error) ? Errors.payloadTooLarge() : Errors.malformedJson())),
    Effect.flatMap((text) => (nestsTooDeeply(text) ? Effect.fail(Errors.nestedTooDeeply(MAX_JSON_DEPTH)) : Effect.void))
  )
}

/**
 * The request's headers, with the host a web Request carries in its URL (fetch never sets Host)
 * when the header is missing, so the CSRF check knows the origin the request reached.
 */
export const headersOf = (request: HttpServerRequest.HttpServerRequest): HeaderBag => {
  if (request.headers.host !== undefined || !URL.canParse(request.originalUrl)) return request.headers
  return { ...request.headers, host: new URL(request.originalUrl).host }
}

/** The socket address the request came from (a proxy's, behind one), when the transport knows it. */
export const peerOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => Option.getOrUndefined(request.remoteAddress)

type Access = typeof ManagementAccess.Service
type ManagementFailure = SecurityFailure | Errors.NotFound

/**
 * Authenticates the caller (a key, else the session cookie), refuses a cookie write from another
 * origin (403), then the body checks. What the caller may do there, the use case decides.
 */
const authorizeManagement = (auth: Authentication["Type"]) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const route = yield* HttpRouter.RouteContext
    // The request's span (tracing on) names the project its route is about.
    if (route.params.projectId !== undefined) yield* Effect.annotateCurrentSpan("flagport.project.id", route.params.projectId)
    const headers = headersOf(request)
    const { actor, caller, via } = yield* Effect.provideService(authenticateRequest(headers, peerOf(request)), Authentication, auth)
    if (via === "session") {
      const refused = crossSiteRefusal(auth.people.settings, request.method, headers, peerOf(request))
      if (refused !== undefined) return yield* Effect.fail(refused)
    }
    yield* bodyChecks(request, route.route.path)
    return { caller, actor }
  })

/**
 * The platform tries each security scheme of a middleware in turn (the next one when the last
 * failed); both schemes here run the one decision above, made once per request and remembered.
 */
const decisions = new WeakMap<HttpServerRequest.HttpServerRequest, Exit.Exit<Access, ManagementFailure>>()

const decideOnce = (auth: Authentication["Type"]): Effect.Effect<Access, ManagementFailure, HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const known = decisions.get(request)
    if (known !== undefined) return known
    return Effect.flatMap(Effect.exit(authorizeManagement(auth)), (exit) => {
      decisions.set(request, exit)
      return exit
    })
  })

export const ManagementAuthLive = Layer.effect(
  ManagementAuth,
  Effect.map(Authentication, (auth) => ManagementAuth.of({ bearerAuth: () => decideOnce(auth), sessionCookie: () => decideOnce(auth) }))
)

/** The routes outside a project: they name none, so their decision never is a project's 404. */
const topLevel = (auth: Authentication["Type"]) =>
  decideOnce(auth).pipe(Effect.catchIf((error): error is Errors.NotFound => error instanceof Errors.NotFound, Effect.die))

export const TopLevelAuthLive = Layer.effect(
  TopLevelAuth,
  Effect.map(Authentication, (auth) => TopLevelAuth.of({ bearerAuth: () => topLevel(auth), sessionCookie: () => topLevel(auth) }))
)

/** `/v1/me`: the person of the session cookie; a key is no person (401). */
export const SessionAuthLive = Layer.effect(
  SessionAuth,
  Effect.map(Authentication, (auth) =>
    SessionAuth.of({
      sessionCookie: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Effect.provideService(
            authenticateSession(headersOf(request), peerOf(request), () => Errors.unauthorized(PeopleMessages.sessionRequired)),
            Authentication,
            auth
          ))
    }))
)

export const SignInBodyChecksLive = Layer.succeed(
  SignInBodyChecks,
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    bodyChecks(request).pipe(
      Effect.catchIf((error): error is Errors.Unauthorized | Errors.ForbiddenError | Errors.InternalError =>
        error instanceof Errors.Unauthorized || error instanceof Errors.ForbiddenError || error instanceof Errors.InternalError, Effect.die)
    ))
)

export const EvaluationAuthLive = Layer.effect(
  EvaluationAuth,
  Effect.gen(function* () {
    const auth = yield* Authentication
    const withAuth = Effect.provideService(Authentication, auth)
    return EvaluationAuth.of({
      bearerAuth: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const principal = yield* withAuth(authenticate(request.headers.authorization))
          yield* bodyChecks(request)
          return principal
        })
    })
  })
)
