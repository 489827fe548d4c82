/**
 * How the HttpApi endpoints authenticate: the two security middlewares (management: server keys;
 * evaluation: client or server keys) and what each provides to the handlers. Auth.ts implements them.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import type { Visible } from "../../../src/domain/auth/Access.js"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import type { Caller } from "../../../src/domain/auth/Caller.js"
import * as Errors from "../shared/Errors.js"

/**
 * The authenticated caller of a management endpoint (a key or a signed-in person), the projects
 * the route's decision lets it see (`null` = all), and the caller as the audit log records it
 * (the handlers run the use cases as it).
 */
export class ManagementAccess extends Context.Tag("@flagport/http/ManagementAccess")<
  ManagementAccess,
  { readonly caller: Caller; readonly visible: Visible; readonly actor: Actor }
>() {}

/** The authenticated caller of an evaluation endpoint (the project is resolved per request). */
export class EvaluationPrincipal extends Context.Tag("@flagport/http/EvaluationPrincipal")<EvaluationPrincipal, Principal>() {}

const securityFailures = Schema.Union(Errors.BadRequest, Errors.Unauthorized, Errors.ForbiddenError, Errors.PayloadTooLarge, Errors.UnsupportedMediaType, Errors.InternalError)

/** The management middleware's failures: those, plus the 404 of a project a person is not a member of. */
const managementFailures = Schema.Union(securityFailures, Errors.NotFound)

/**
 * Server key required; a project-scoped one only for the project of the route. The raw
 * Authorization header is parsed by `Policy` (the built-in bearer does not check the scheme).
 */
export class ManagementAuth extends HttpApiMiddleware.Tag<ManagementAuth>()("ManagementAuth", {
  failure: managementFailures,
  provides: ManagementAccess,
  security: { bearerAuth: HttpApiSecurity.bearer }
}) {}

/**
 * The same decision for the management routes outside a project (`/v1/projects`, `/v1/users`):
 * its own tag only so that those operations do not list the 404 of a project they do not name.
 */
export class TopLevelAuth extends HttpApiMiddleware.Tag<TopLevelAuth>()("TopLevelAuth", {
  failure: securityFailures,
  provides: ManagementAccess,
  security: { bearerAuth: HttpApiSecurity.bearer }
}) {}

/** Client or server key. */
export class EvaluationAuth extends HttpApiMiddleware.Tag<EvaluationAuth>()("EvaluationAuth", {
  failure: securityFailures,
  provides: EvaluationPrincipal,
  security: { bearerAuth: HttpApiSecurity.bearer }
}) {}
