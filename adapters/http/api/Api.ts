/**
 * The HttpApi declaration: every endpoint of the specification plus the contract's extra ones,
 * grouped per resource. This is the single source of the routes, the request schemas (both HTTP
 * lanes decode with them) and the OpenAPI document.
 *
 * Payload schemas are annotated `errors: "all"` (every problem is reported, not only the first)
 * and `onExcessProperty: "error"` (unknown JSON fields are rejected).
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import { ConfigSnapshot } from "../../../src/domain/evaluation/ConfigSnapshot.js"
import { EvaluationContext } from "../../../src/domain/evaluation/EvaluationContext.js"
import { EvaluationResult } from "../../../src/domain/evaluation/EvaluationResult.js"
import { CreateFlagInput, Flag, PatchFlagInput } from "../../../src/domain/definitions/Flag.js"
import { Text } from "../../../src/domain/definitions/Text.js"
import { CreateEnvironmentInput, CreateProjectInput, Environment, Project } from "../../../src/domain/definitions/Project.js"
import { CreateSegmentInput, PatchSegmentInput, Segment } from "../../../src/domain/definitions/Segment.js"
import { TargetingInput } from "../../../src/domain/definitions/Targeting.js"
import { CreateWebhookInput, PatchWebhookInput, Webhook } from "../../../src/domain/webhooks/Webhook.js"
import { Delivery } from "../../../src/domain/webhooks/WebhookDelivery.js"
import * as Errors from "../shared/Errors.js"
import { ConfigQuery, EvaluateRequest, EvaluateResponse, FlagEvalQuery, strict } from "../shared/EvaluationRequests.js"
import { removeBuiltInDecodeError } from "./OpenApiDocument.js"

const dataOf = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ data: Schema.Array(item) })

const Created = <S extends Schema.Schema.Any>(schema: S): S => schema.annotations(HttpApiSchema.annotations({ status: 201 })) as S

// ---------------------------------------------------------------------------------------------
// Security
// ---------------------------------------------------------------------------------------------

/** The authenticated caller of a management endpoint and the project scope the policy allows (`null` = all). */
export class ManagementAccess extends Context.Tag("@flagport/http/ManagementAccess")<
  ManagementAccess,
  { readonly principal: Principal; readonly scope: string | null }
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

// ---------------------------------------------------------------------------------------------
// Parameters and bodies
// ---------------------------------------------------------------------------------------------

// Path parameters are looked up in the database: U+0000 is refused (400) before any query.
const projectId = HttpApiSchema.param("projectId", Text)
const flagKey = HttpApiSchema.param("flagKey", Text)
const segmentKey = HttpApiSchema.param("segmentKey", Text)
const webhookId = HttpApiSchema.param("webhookId", Text)
const deliveryId = HttpApiSchema.param("deliveryId", Text)

export const ConfigHeaders = Schema.Struct({
  "if-none-match": Schema.optional(Schema.String)
})

export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  database: Schema.Literal("ok")
})

// ---------------------------------------------------------------------------------------------
// Groups
// ---------------------------------------------------------------------------------------------

export class HealthGroup extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .addError(Errors.Unavailable)
      .annotate(OpenApi.Summary, "Liveness and a database check")
  )
  .annotate(OpenApi.Description, "Service endpoints (no authentication)") {}

export class ProjectsGroup extends HttpApiGroup.make("projects")
  .add(HttpApiEndpoint.get("list", "/v1/projects").addSuccess(dataOf(Project)))
  .add(HttpApiEndpoint.post("create", "/v1/projects").setPayload(strict(CreateProjectInput)).addSuccess(Created(Project)))
  .middleware(ManagementAuth) {}

export class EnvironmentsGroup extends HttpApiGroup.make("environments")
  .add(HttpApiEndpoint.get("list")`/v1/projects/${projectId}/environments`.addSuccess(dataOf(Environment)))
  .add(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/environments`
      .setPayload(strict(CreateEnvironmentInput))
      .addSuccess(Created(Environment))
  )
  .middleware(ManagementAuth) {}

export class FlagsGroup extends HttpApiGroup.make("flags")
  .add(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/flags`.setPayload(strict(CreateFlagInput)).addSuccess(Created(Flag))
  )
  .add(HttpApiEndpoint.get("list")`/v1/projects/${projectId}/flags`.addSuccess(dataOf(Flag)))
  .add(HttpApiEndpoint.get("get")`/v1/projects/${projectId}/flags/${flagKey}`.addSuccess(Flag))
  .add(HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/flags/${flagKey}`.setPayload(strict(PatchFlagInput)).addSuccess(Flag))
  .add(HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/flags/${flagKey}`.addSuccess(HttpApiSchema.NoContent))
  .add(
    HttpApiEndpoint.put("replaceTargeting")`/v1/projects/${projectId}/flags/${flagKey}/targeting`
      .setPayload(strict(TargetingInput))
      .addSuccess(Flag)
  )
  .middleware(ManagementAuth) {}

export class SegmentsGroup extends HttpApiGroup.make("segments")
  .add(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/segments`
      .setPayload(strict(CreateSegmentInput))
      .addSuccess(Created(Segment))
  )
  .add(HttpApiEndpoint.get("list")`/v1/projects/${projectId}/segments`.addSuccess(dataOf(Segment)))
  .add(HttpApiEndpoint.get("get")`/v1/projects/${projectId}/segments/${segmentKey}`.addSuccess(Segment))
  .add(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/segments/${segmentKey}`
      .setPayload(strict(PatchSegmentInput))
      .addSuccess(Segment)
  )
  .add(HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/segments/${segmentKey}`.addSuccess(HttpApiSchema.NoContent))
  .middleware(ManagementAuth) {}

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/webhooks`
      .setPayload(strict(CreateWebhookInput))
      .addSuccess(Created(Webhook))
  )
  .add(HttpApiEndpoint.get("list")`/v1/projects/${projectId}/webhooks`.addSuccess(dataOf(Webhook)))
  .add(HttpApiEndpoint.get("get")`/v1/projects/${projectId}/webhooks/${webhookId}`.addSuccess(Webhook))
  .add(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/webhooks/${webhookId}`
      .setPayload(strict(PatchWebhookInput))
      .addSuccess(Webhook)
  )
  .add(HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/webhooks/${webhookId}`.addSuccess(HttpApiSchema.NoContent))
  .add(HttpApiEndpoint.get("deliveries")`/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`.addSuccess(dataOf(Delivery)))
  .add(
    HttpApiEndpoint.post("redeliver")`/v1/projects/${projectId}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`
      .addSuccess(Created(Delivery))
  )
  .middleware(ManagementAuth) {}

export class EvaluationGroup extends HttpApiGroup.make("evaluation")
  .add(HttpApiEndpoint.post("evaluate", "/v1/evaluate").setPayload(EvaluateRequest).addSuccess(EvaluateResponse))
  .add(HttpApiEndpoint.get("flag")`/v1/flags/${flagKey}/eval`.setUrlParams(FlagEvalQuery).addSuccess(EvaluationResult))
  .add(
    HttpApiEndpoint.get("config", "/v1/config")
      .setUrlParams(ConfigQuery)
      .setHeaders(ConfigHeaders)
      .addSuccess(ConfigSnapshot)
      .addSuccess(HttpApiSchema.Empty(304).annotations({ description: "Not modified: If-None-Match equals the current ETag." }))
  )
  .middleware(EvaluationAuth) {}

export class FlagportApi extends HttpApi.make("flagport")
  .add(HealthGroup)
  .add(ProjectsGroup)
  .add(EnvironmentsGroup)
  .add(FlagsGroup)
  .add(SegmentsGroup)
  .add(WebhooksGroup)
  .add(EvaluationGroup)
  .addError(Errors.BadRequest)
  .addError(Errors.NotFound)
  .addError(Errors.Conflict)
  .addError(Errors.InternalError)
  .annotate(OpenApi.Title, "Flagport")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(OpenApi.Description, "Self-hosted feature flags: management, evaluation and webhooks.")
  .annotate(OpenApi.Transform, removeBuiltInDecodeError) {}
