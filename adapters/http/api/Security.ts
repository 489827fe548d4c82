/**
 * How the HttpApi endpoints authenticate: the two security middlewares (management: server keys;
 * evaluation: client or server keys) and what each provides to the handlers. Auth.ts implements them.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Errors from "../shared/Errors.js"

/**
 * The authenticated caller of a management endpoint, the project scope the policy allows (`null`
 * = all), and the caller as the audit log records it (the handlers run the use cases as it).
 */
export class ManagementAccess extends Context.Tag("@flagport/http/ManagementAccess")<
  ManagementAccess,
  { readonly principal: Principal; readonly scope: string | null; readonly actor: Actor }
>() {}

/** The authenticated caller of an evaluation endpoint (the project is resolved per request). */
export class EvaluationPrincipal extends Context.Tag("@flagport/http/EvaluationPrincipal")<EvaluationPrincipal, Principal>() {}

const securityFailures = Schema.Union(Errors.BadRequest, Errors.Unauthorized, Errors.ForbiddenError, Errors.PayloadTooLarge, Errors.UnsupportedMediaType, Errors.InternalError)

/**
 * Server key required; a project-scoped one only for the project of the route. The raw
 * Authorization header is parsed by `Policy` (the built-in bearer does not check the scheme).
 */
export class ManagementAuth extends HttpApiMiddleware.Tag<ManagementAuth>()("ManagementAuth", {
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
