/**
 * The security middlewares of the HttpApi lane. Both read the RAW Authorization header and
 * decide with `Policy` (the built-in bearer decoder only slices the header and never checks the
 * scheme), through the same `Authenticator` (and key cache) as the fast routes.
 * After authorization they check the body headers (413 / 415), so an unauthenticated caller
 * learns nothing about the route beyond "401".
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Either, Layer } from "effect"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import { EvaluationAuth, ManagementAuth } from "./Api.js"
import { Authentication, type Authenticator } from "../shared/Authentication.js"
import { checkBodyHeaders } from "../shared/Body.js"
import * as Errors from "../shared/Errors.js"

type SecurityFailure =
  | Errors.Unauthorized
  | Errors.ForbiddenError
  | Errors.PayloadTooLarge
  | Errors.UnsupportedMediaType
  | Errors.InternalError

/** Authentication fails with 401, or 500 when the key store fails (logged by the authenticator). */
const authenticate = (
  auth: Authenticator,
  authorization: string | undefined
): Effect.Effect<Principal, SecurityFailure> =>
  Effect.tryPromise({
    try: async () => auth.authenticate(authorization),
    catch: (error): SecurityFailure => {
      const mapped = auth.toApiError(error)
      return mapped instanceof Errors.Unauthorized ? mapped : mapped instanceof Errors.InternalError ? mapped : Errors.internalError()
    }
  })

const headerOf = (request: HttpServerRequest.HttpServerRequest) => (name: string): string | undefined => request.headers[name]

const bodyHeaders = (request: HttpServerRequest.HttpServerRequest) => {
  const problem = checkBodyHeaders(headerOf(request))
  return problem === undefined ? Effect.void : Effect.fail(problem)
}

/** The management target of the current route: a project of the path, or the project collection. */
const targetOf = (method: string, params: Readonly<Record<string, string | undefined>>): Policy.ManagementTarget => {
  const projectId = params.projectId
  if (projectId !== undefined) return { _tag: "Project", projectId }
  return method === "POST" ? { _tag: "CreateProject" } : { _tag: "ListProjects" }
}

export const ManagementAuthLive = Layer.effect(
  ManagementAuth,
  Effect.gen(function* () {
    const auth = yield* Authentication
    return ManagementAuth.of({
      bearerAuth: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const route = yield* HttpRouter.RouteContext
          const principal = yield* authenticate(auth, request.headers.authorization)
          const scope = Policy.authorizeManagement(principal, targetOf(request.method, route.params))
          if (Either.isLeft(scope)) return yield* Effect.fail(Errors.forbidden(scope.left.message))
          yield* bodyHeaders(request)
          return { principal, scope: scope.right }
        })
    })
  })
)

export const EvaluationAuthLive = Layer.effect(
  EvaluationAuth,
  Effect.gen(function* () {
    const auth = yield* Authentication
    return EvaluationAuth.of({
      bearerAuth: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const principal = yield* authenticate(auth, request.headers.authorization)
          yield* bodyHeaders(request)
          return principal
        })
    })
  })
)
