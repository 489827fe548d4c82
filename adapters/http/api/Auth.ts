/**
 * The security middlewares of the HttpApi lane. Both read the RAW Authorization header and
 * decide with `Policy` (the built-in bearer decoder only slices the header and never checks the
 * scheme), through the Effect face of the same `Authentication` layer (and key cache) as the fast
 * routes (shared/Authentication.ts).
 * After authorization they check the body headers (413 / 415) and the body's nesting depth (400,
 * before the schemas decode it: their recursion would overflow the stack), so an unauthenticated
 * caller learns nothing about the route beyond "401" and costs no body read.
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import type { ApiKey, Principal } from "../../../src/domain/auth/ApiKey.js"
import { authorizeCaller } from "../../../src/domain/auth/Access.js"
import { type Requirement, requirementOf } from "../../../src/domain/auth/Permissions.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import { EvaluationAuth, ManagementAuth, TopLevelAuth } from "./Security.js"
import { Authentication, authenticateKey } from "../shared/Authentication.js"
import { announcesBody, checkBodyHeaders, MAX_JSON_DEPTH, nestsTooDeeply } from "../shared/Body.js"
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
const bodyChecks = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<void, SecurityFailure> => {
  const header = headerOf(request)
  const problem = checkBodyHeaders(header)
  if (problem !== undefined) return Effect.fail(problem)
  if (!announcesBody(header)) return Effect.void
  return request.text.pipe(
    Effect.mapError((error) => (isBodyLimit(error) ? Errors.payloadTooLarge() : Errors.malformedJson())),
    Effect.flatMap((text) => (nestsTooDeeply(text) ? Effect.fail(Errors.nestedTooDeeply(MAX_JSON_DEPTH)) : Effect.void))
  )
}

/**
 * What the current route needs, from the one table (Permissions.ts). A management route without
 * a row is a bug (a test holds the table equal to the declaration): it dies, answered 500.
 */
const requirementOfRoute = (method: string, route: HttpRouter.RouteContext): Effect.Effect<Requirement> => {
  const requirement = requirementOf(method, route.route.path)
  return requirement === undefined
    ? Effect.dieMessage(`No permission is declared for ${method} ${route.route.path} (src/domain/auth/Permissions.ts)`)
    : Effect.succeed(requirement)
}

/** The audit log's actor of a management request: the key that authenticated it. */
const actorOf = (key: ApiKey): Actor => ({ type: "key", keyId: key.id, keyName: key.name })

/**
 * Authenticates the caller, decides the route from the table (404 of a project a person is not
 * a member of, 403 beyond their role or the key's scope), then the body checks.
 */
const authorizeManagement = (withAuth: <A, E>(effect: Effect.Effect<A, E, Authentication>) => Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const route = yield* HttpRouter.RouteContext
    const key = yield* withAuth(authenticateKey(request.headers.authorization))
    const caller = Policy.principalOf(key)
    const requirement = yield* requirementOfRoute(request.method, route)
    const visible = authorizeCaller(caller, requirement, route.params.projectId)
    if (Either.isLeft(visible)) return yield* Effect.fail(Errors.fromDomain(visible.left))
    yield* bodyChecks(request)
    return { caller, visible: visible.right, actor: actorOf(key) }
  })

const withAuthentication = Effect.map(Authentication, (auth) => <A, E>(effect: Effect.Effect<A, E, Authentication>) => Effect.provideService(effect, Authentication, auth))

export const ManagementAuthLive = Layer.effect(
  ManagementAuth,
  Effect.map(withAuthentication, (withAuth) => ManagementAuth.of({ bearerAuth: () => authorizeManagement(withAuth) }))
)

/** The routes outside a project: they name none, so their decision never is a project's 404. */
export const TopLevelAuthLive = Layer.effect(
  TopLevelAuth,
  Effect.map(withAuthentication, (withAuth) =>
    TopLevelAuth.of({
      bearerAuth: () =>
        authorizeManagement(withAuth).pipe(
          // A route without {projectId} cannot be refused as a project's 404.
          Effect.catchIf((error): error is Errors.NotFound => error instanceof Errors.NotFound, Effect.die)
        )
    }))
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
