/**
 * How the HttpApi endpoints authenticate: the two security middlewares (management: server keys;
 * evaluation: client or server keys) and what each provides to the handlers. Auth.ts implements them.
 */
import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import type { Caller } from "../../../src/domain/auth/Caller.js"
import type { UserWithMemberships } from "../../../src/domain/people/User.js"
import * as Errors from "../shared/Errors.js"
import { COOKIE_NAME } from "../shared/SessionCookie.js"

/**
 * The authenticated caller of a management endpoint (a key or a signed-in person) and the caller as
 * the audit log records it: the handlers run the use cases as it, and the use cases decide what it may do.
 */
export class ManagementAccess extends Context.Tag("@flagport/http/ManagementAccess")<
  ManagementAccess,
  { readonly caller: Caller; readonly actor: Actor }
>() {}

/** The authenticated caller of an evaluation endpoint (the project is resolved per request). */
export class EvaluationPrincipal extends Context.Tag("@flagport/http/EvaluationPrincipal")<EvaluationPrincipal, Principal>() {}

/**
 * The session cookie of a signed-in person, beside the bearer key: management routes take either
 * (a request with both is judged by the key), evaluation routes only keys.
 */
const sessionCookie = HttpApiSecurity.apiKey({ in: "cookie", key: COOKIE_NAME }).pipe(
  HttpApiSecurity.annotate(
    OpenApi.Description,
    "The session of a person signed in with POST /v1/auth/login (or single sign-on): `flagport_session`, named `__Host-flagport_session` when the server's public URL is https. Writes by cookie need an `Origin` header equal to the server's origin."
  )
)

/** The signed-in person of `/v1/me`, as the session authenticates them. */
export class SignedIn extends Context.Tag("@flagport/http/SignedIn")<SignedIn, UserWithMemberships>() {}

const securityFailures = Schema.Union(Errors.BadRequest, Errors.Unauthorized, Errors.ForbiddenError, Errors.PayloadTooLarge, Errors.UnsupportedMediaType, Errors.InternalError)

/** The management middleware's failures: those, plus the 404 of a project a person is not a member of. */
const managementFailures = Schema.Union(securityFailures, Errors.NotFound)

/**
 * The routes of a project: a key (a server key; a project-scoped one only for its project) or a
 * person's session; what it may do there its use case decides (Permissions.ts). The raw
 * Authorization header is parsed by `Policy` (the built-in bearer does not check the scheme).
 */
export class ManagementAuth extends HttpApiMiddleware.Tag<ManagementAuth>()("ManagementAuth", {
  failure: managementFailures,
  provides: ManagementAccess,
  security: { bearerAuth: HttpApiSecurity.bearer, sessionCookie }
}) {}

/**
 * The same decision for the management routes outside a project (`/v1/projects`, `/v1/users`):
 * its own tag only so that those operations do not list the 404 of a project they do not name.
 */
export class TopLevelAuth extends HttpApiMiddleware.Tag<TopLevelAuth>()("TopLevelAuth", {
  failure: securityFailures,
  provides: ManagementAccess,
  security: { bearerAuth: HttpApiSecurity.bearer, sessionCookie }
}) {}

/** A session only (`/v1/me`): 401 without one, whatever key the request carries. */
export class SessionAuth extends HttpApiMiddleware.Tag<SessionAuth>()("SessionAuth", {
  failure: Schema.Union(Errors.Unauthorized, Errors.InternalError),
  provides: SignedIn,
  security: { sessionCookie }
}) {}

/** Client or server key. */
export class EvaluationAuth extends HttpApiMiddleware.Tag<EvaluationAuth>()("EvaluationAuth", {
  failure: securityFailures,
  provides: EvaluationPrincipal,
  security: { bearerAuth: HttpApiSecurity.bearer }
}) {}

/**
 * The sign-in routes take no credentials, but their bodies get the same checks as every other
 * (413 / 415 from the headers, 400 for a body nested too deeply) before any decoding.
 */
export class SignInBodyChecks extends HttpApiMiddleware.Tag<SignInBodyChecks>()("SignInBodyChecks", {
  failure: Schema.Union(Errors.BadRequest, Errors.PayloadTooLarge, Errors.UnsupportedMediaType)
}) {}
