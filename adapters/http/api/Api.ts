/**
 * The HttpApi declaration: every endpoint of the specification plus the contract's extra ones,
 * grouped per resource. This is the single source of the routes, the request schemas (both HTTP
 * lanes decode with them) and the OpenAPI document.
 *
 * Payload schemas are annotated `errors: "all"` (every problem is reported, not only the first)
 * and `onExcessProperty: "error"` (unknown JSON fields are rejected).
 *
 * Each operation declares only the error statuses it can return: the security middlewares their
 * 400/401/403/413/415/500, a group or endpoint the envelopes its handlers can produce (the
 * handlers' error types, from `Errors.EnvelopeOf`, make the compiler insist), the API only 500 (and
 * the document the 431 that node's parser answers before routing, see OpenApiDocument.ts).
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import pkg from "../../../package.json" with { type: "json" }
import { AuditPage, AuditQuery } from "../../../src/domain/audit/AuditPage.js"
import { ApiKey, CreatedApiKey, CreateProjectKeyInput } from "../../../src/domain/auth/ApiKey.js"
import { ConfigSnapshot } from "../../../src/domain/evaluation/ConfigSnapshot.js"
import { EvaluationContext } from "../../../src/domain/evaluation/EvaluationContext.js"
import { EvaluationResult } from "../../../src/domain/evaluation/EvaluationResult.js"
import { CreateFlagInput, PatchFlagInput } from "../../../src/domain/definitions/Flag.js"
import { Text } from "../../../src/domain/definitions/Text.js"
import { documentName } from "../../../src/domain/DocumentName.js"
import { CreateEnvironmentInput, CreateProjectInput, Environment, Project, UpdateEnvironmentInput } from "../../../src/domain/definitions/Project.js"
import { CreateSegmentInput, PatchSegmentInput, Segment } from "../../../src/domain/definitions/Segment.js"
import { TargetingInput } from "../../../src/domain/definitions/Targeting.js"
import { CopyEnvironmentInput } from "../../../src/domain/definitions/CopyEnvironmentInput.js"
import { CreateWebhookInput, PatchWebhookInput, Webhook } from "../../../src/domain/webhooks/Webhook.js"
import { Delivery } from "../../../src/domain/webhooks/WebhookDelivery.js"
import { ConfigWithUsage, FlagWithUsage } from "../../../src/domain/insights/Usage.js"
import * as Errors from "../shared/Errors.js"
import * as Examples from "./Examples.js"
import { ConfigQuery, EvaluateRequest, EvaluateResponse, ExplainRequest, FlagEvalQuery, strict } from "../shared/EvaluationRequests.js"
import { ExplanationSchema } from "../../../src/domain/evaluation/Explain.js"
import { Created, dataOf, deliveryId, described, environmentKey, flagKey, keyId, projectId, scheduleId, segmentKey, webhookId } from "./Declaring.js"
import { InsightsGroup, InsightsReportGroup } from "./Insights.js"
import { declareConfigETag, finishDocument } from "./OpenApiDocument.js"
import { OfrepGroup } from "./Ofrep.js"
import { EvaluationAuth, ManagementAuth, TopLevelAuth } from "./Security.js"
import { AuthGroup, MeGroup, MembersGroup, UsersGroup } from "./People.js"
import { ChangeRequestsGroup } from "./ChangeRequests.js"
import { FlagsAsCodeGroup, SchemasGroup } from "./FlagsAsCode.js"
import { SchedulesGroup } from "./Schedules.js"
import { StreamsGroup } from "./Streams.js"
import { IfMatchHeaders, TargetingIfMatchHeaders, TargetingQuery } from "./Versioning.js"
import { EventsGroup } from "./Events.js"

// The resources with their examples: one instance of each, so every operation refers to one component.
const ProjectDoc = Project.annotations({ examples: [Examples.project] })
const EnvironmentDoc = Environment.annotations({ examples: [Examples.environment] })
const FlagDoc = FlagWithUsage.annotations({ examples: [Examples.flagWithUsage] })
const SegmentDoc = Segment.annotations({ examples: [Examples.segment] })
const WebhookDoc = Webhook.annotations({ examples: [Examples.webhook] })
const ApiKeyDoc = ApiKey.annotations({ examples: [Examples.apiKey] })
const CreatedApiKeyDoc = CreatedApiKey.annotations({ examples: [Examples.createdKey] })
const AuditPageDoc = AuditPage.annotations({ examples: [Examples.auditPage] })
const EvaluateResponseDoc = EvaluateResponse.annotations({ examples: [Examples.evaluated] })

const CopiedFlagsDoc = dataOf(Schema.String).annotations({
  ...documentName("CopiedFlags"),
  description: "The keys of the flags whose configuration changed.",
  examples: [Examples.copied]
})

// ---------------------------------------------------------------------------------------------
// Parameters and bodies
// ---------------------------------------------------------------------------------------------

export const ConfigHeaders = Schema.Struct({
  "if-none-match": Schema.optional(Schema.String)
})

/** `GET .../flags?status=stale`: only the stale flags. */
export const FlagListQuery = strict(Schema.Struct({
  status: Schema.optional(Schema.Literal("stale"))
}))

/** `GET /v1/projects/{p}/schedules`: only one environment's schedules when named. */
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
      .annotate(OpenApi.Description, "Answers 200 when the process is up and the database answers a trivial query, 503 when the database cannot be reached. No authentication, so load balancers and orchestrators can probe it.")
  )
  .annotate(OpenApi.Description, "Service endpoints (no authentication)") {}

export class ProjectsGroup extends HttpApiGroup.make("projects")
  .add(described(
    HttpApiEndpoint.get("list", "/v1/projects").addSuccess(dataOf(ProjectDoc)),
    "List projects",
    "The projects the key may manage: all of them for a global server key, its own project for a project-scoped one."
  ))
  .add(described(
    HttpApiEndpoint.post("create", "/v1/projects").setPayload(strict(CreateProjectInput).annotations({ examples: [Examples.createProject] })).addSuccess(Created(ProjectDoc))
      .addError(Errors.Conflict),
    "Create a project",
    "Creates an empty project (add environments with POST .../environments). Needs a global server key; 409 when the id is taken."
  ))
  .middleware(TopLevelAuth)
  .annotate(OpenApi.Description, "Projects: the unit of ownership of flags, segments, environments and webhooks.") {}

export class EnvironmentsGroup extends HttpApiGroup.make("environments")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/environments`.addSuccess(dataOf(EnvironmentDoc)),
    "List environments",
    "The environments of a project, in creation order."
  ))
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/environments`
      .setPayload(strict(CreateEnvironmentInput).annotations({ examples: [Examples.createEnvironment] }))
      .addSuccess(Created(EnvironmentDoc))
      .addError(Errors.Conflict),
    "Create an environment",
    "Adds an environment to a project; every existing flag gets a configuration in it (disabled, serving its off variation). 409 when the key is taken."
  ))
  .add(described(
    HttpApiEndpoint.patch("update")`/v1/projects/${projectId}/environments/${environmentKey}`
      .setPayload(strict(UpdateEnvironmentInput).annotations({ examples: [{ clientConfig: "evaluated" }, { protected: true, requiredApprovals: 2 }] }))
      .addSuccess(EnvironmentDoc)
      .addError(Errors.Conflict),
    "Change an environment's settings",
    "Changes the settings given and keeps the others; answers the environment. `name`: its display name. `protected`: people then change its targeting, schedules and copies into it only through an approved change request (409 `change_request_required` otherwise; server keys keep writing directly), and `requiredApprovals` (1-5, default 1) is how many approvals such a request needs; a new number holds at once for the environment's open and approved requests (each counted again, audited as `change_request.updated`; 409 only if one kept changing meanwhile). `clientConfig`: `full` (the default, the specification's) lets client keys fetch `GET /v1/config`, rules and segments (with their values) included; `evaluated` gives client keys evaluated answers only (evaluate, OFREP, stream): `GET /v1/config` and `POST /v1/explain` (whose trace shows the rules' values) answer them 403. Server keys always get the configuration. A key bound to an environment changes only that one (403). Audited as `environment.updated`."
  ))
  .add(described(
    HttpApiEndpoint.post("copy")`/v1/projects/${projectId}/environments/${environmentKey}/copy`
      .setPayload(strict(CopyEnvironmentInput).annotations({ examples: [Examples.copyEnvironment] }))
      .setHeaders(IfMatchHeaders)
      .addSuccess(CopiedFlagsDoc)
      .addError(Errors.PreconditionFailed)
      .addError(Errors.Conflict),
    "Copy flag configurations from another environment",
    "In one transaction, copies enabled, default and off variations and rules (with their ids) of each named flag (every flag when `flags` is absent) from `from` into this environment, and answers the keys of the flags whose configuration changed. `If-Match` needs exactly one flag in `flags`; 412 unless that flag is still at that version. 409 `change_request_required` when a person copies into a protected environment."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Environments of a project (for example `development`, `production`): each flag has one configuration per environment.") {}

export class FlagsGroup extends HttpApiGroup.make("flags")
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/flags`.setPayload(strict(CreateFlagInput).annotations({ examples: [Examples.createFlag] })).addSuccess(Created(FlagDoc))
      .addError(Errors.Conflict),
    "Create a flag",
    "Creates a flag with its variations. In every environment it starts disabled, serving its first variation by default and its last one when off; set targeting with PUT .../targeting. 409 when the key is taken."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/flags`.setUrlParams(FlagListQuery).addSuccess(dataOf(FlagDoc)),
    "List flags",
    "Every flag of the project with its configuration in each environment (each with `lastEvaluatedAt`). `status=stale` keeps only the stale flags: not evaluated in any environment for FLAGPORT_STALE_AFTER_DAYS (default 30) days, and older than that. A key bound to an environment gets each flag with that environment's configuration only."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/flags/${flagKey}`.addSuccess(FlagDoc),
    "Get a flag",
    "One flag with its configuration in each environment (a key bound to an environment: that one's only). The `ETag` response header is the flag's version, for `If-Match` on a later write."
  ))
  .add(described(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/flags/${flagKey}`
      .setPayload(strict(PatchFlagInput).annotations({ examples: [Examples.patchFlag] }))
      .setHeaders(IfMatchHeaders)
      .addSuccess(FlagDoc)
      .addError(Errors.Conflict)
      .addError(Errors.PreconditionFailed),
    "Update a flag",
    "Changes the name, description or variations; send only what changes. A variation still used by a configuration or rule cannot be removed (409). With `If-Match`, 412 unless the flag is still at that version. While the project has a protected environment, a person's change to an existing variation's value, or removal of a variation, is refused with 409 `change_request_required` naming the first protected environment (change requests carry targeting only: a server key writes it directly, audited under its name); name, description and new variations stay open to people."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/flags/${flagKey}`
      .setHeaders(IfMatchHeaders)
      .addSuccess(HttpApiSchema.NoContent)
      .addError(Errors.PreconditionFailed)
      .addError(Errors.Conflict),
    "Delete a flag",
    "Deletes the flag in every environment. Evaluations then answer `FLAG_NOT_FOUND`. With `If-Match`, 412 unless the flag is still at that version. 409 while another flag names it as a prerequisite. While the project has a protected environment, a person's delete is refused with 409 `change_request_required` naming the first protected environment (a server key deletes directly, audited under its name)."
  ))
  .add(described(
    HttpApiEndpoint.get("getTargeting")`/v1/projects/${projectId}/flags/${flagKey}/targeting`
      .setUrlParams(TargetingQuery)
      .addSuccess(ConfigWithUsage.annotations({ examples: [Examples.flagWithUsage.configs[0]!] })),
    "Get a flag's targeting in one environment",
    "The flag's configuration in `environment`, with its `version` and `lastEvaluatedAt`. The `ETag` response header is `\"<environment>:<version>\"`: send it in `If-Match` on PUT .../targeting to be refused (412) only when this environment's configuration, or the flag's variations, changed since, so that people editing different environments of one flag never block each other. 404 for an unknown environment."
  ))
  .add(described(
    HttpApiEndpoint.put("replaceTargeting")`/v1/projects/${projectId}/flags/${flagKey}/targeting`
      .setPayload(strict(TargetingInput).annotations({ examples: [Examples.replaceTargeting] }))
      .setHeaders(TargetingIfMatchHeaders)
      .addSuccess(FlagDoc)
      .addError(Errors.PreconditionFailed)
      .addError(Errors.Conflict),
    "Replace a flag's targeting in one environment",
    "Replaces the whole configuration of the flag in one environment: on/off, the default and off variations, and the rules, evaluated in order. A rule serves exactly one of `variationKey` and `rollout`; rule ids are assigned when missing. With `If-Match` naming the flag's ETag, 412 unless the flag is still at that version; naming this environment's targeting ETag (`\"<environment>:<version>\"`), 412 only when this environment's configuration or the flag's variations changed since (a change to another environment, or to the name or description, does not conflict); an ETag of another environment's targeting is a 400. The `ETag` answered is the flag's; the configuration's new version is in `configs`. In a protected environment a person's change needs an approved change request: 409 `change_request_required` (server keys write directly)."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Feature flags: variations shared by the project, and targeting (on/off, rules, rollouts) per environment.") {}

export class SegmentsGroup extends HttpApiGroup.make("segments")
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/segments`
      .setPayload(strict(CreateSegmentInput).annotations({ examples: [Examples.createSegment] }))
      .addSuccess(Created(SegmentDoc))
      .addError(Errors.Conflict),
    "Create a segment",
    "A reusable group of contexts (included keys, excluded keys, and conditions) that rules reference with `in_segment`. 409 when the key is taken."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/segments`.addSuccess(dataOf(SegmentDoc)),
    "List segments",
    "Every segment of the project."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/segments/${segmentKey}`.addSuccess(SegmentDoc),
    "Get a segment",
    "One segment."
  ))
  .add(described(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/segments/${segmentKey}`
      .setPayload(strict(PatchSegmentInput).annotations({ examples: [Examples.patchSegment] }))
      .addSuccess(SegmentDoc)
      .addError(Errors.Conflict),
    "Update a segment",
    "Changes the name, description, included or excluded keys, or conditions; send only what changes. A person's change to a segment that the targeting of a protected environment names is refused with 409 `change_request_required` naming the first such environment (a server key writes it directly, audited under its name)."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/segments/${segmentKey}`.addSuccess(HttpApiSchema.NoContent)
      .addError(Errors.Conflict),
    "Delete a segment",
    "Deletes a segment no flag uses; 409 names the flags that still do. For a person, when a protected environment's targeting names it, the 409 is `change_request_required` naming the first such environment."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Segments: named groups of contexts shared by the rules of a project's flags.") {}

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/webhooks`
      .setPayload(strict(CreateWebhookInput).annotations({ examples: [Examples.createWebhook] }))
      .addSuccess(Created(WebhookDoc))
      .addError(Errors.Conflict),
    "Create a webhook",
    "Subscribes a URL to change events of the project (see the `webhooks` section for the payloads). Deliveries are signed as Standard Webhooks with the secret. 409 when the project already has the most webhooks allowed (20 unless FLAGPORT_WEBHOOKS_PER_PROJECT says otherwise)."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/webhooks`.addSuccess(dataOf(WebhookDoc)),
    "List webhooks",
    "Every webhook of the project (secrets are never returned)."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/webhooks/${webhookId}`.addSuccess(WebhookDoc),
    "Get a webhook",
    "One webhook (its secret is never returned)."
  ))
  .add(described(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/webhooks/${webhookId}`
      .setPayload(strict(PatchWebhookInput).annotations({ examples: [Examples.patchWebhook] }))
      .addSuccess(WebhookDoc),
    "Update a webhook",
    "Changes the URL, the events, the secret or whether it is enabled; send only what changes."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/webhooks/${webhookId}`.addSuccess(HttpApiSchema.NoContent),
    "Delete a webhook",
    "Deletes the webhook; it receives no further deliveries."
  ))
  .add(described(
    HttpApiEndpoint.get("deliveries")`/v1/projects/${projectId}/webhooks/${webhookId}/deliveries`.addSuccess(dataOf(Delivery)),
    "List a webhook's deliveries",
    "The webhook's deliveries in creation order, each with every attempt (time, status code, duration, error, next attempt)."
  ))
  .add(described(
    HttpApiEndpoint.post("redeliver")`/v1/projects/${projectId}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`
      .addSuccess(Created(Delivery))
      .addError(Errors.Conflict),
    "Redeliver an event",
    "Sends a settled (succeeded or failed) delivery again: a new delivery of the same event (same `webhook-id`, so receivers can drop duplicates) with a fresh retry schedule. 409 while the delivery is still pending or the webhook is disabled."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Webhooks: signed HTTP callbacks on every change of a project's flags and segments.") {}

export class KeysGroup extends HttpApiGroup.make("keys")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/keys`.addSuccess(dataOf(ApiKeyDoc)),
    "List a project's API keys",
    "The keys scoped to the project, each with its name, type and prefix; the secrets themselves are never returned. A key bound to an environment lists only the keys bound to that same environment (itself among them)."
  ))
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/keys`
      .setPayload(strict(CreateProjectKeyInput).annotations({ examples: [Examples.createKey] }))
      .addSuccess(Created(CreatedApiKeyDoc)),
    "Create an API key",
    "Makes a server or client key scoped to the project. The secret is in `key` in this answer only: store it now, it cannot be read again."
  ))
  .add(described(
    HttpApiEndpoint.del("revoke")`/v1/projects/${projectId}/keys/${keyId}`.addSuccess(HttpApiSchema.NoContent)
      .addError(Errors.Conflict),
    "Revoke an API key",
    "Revokes a key of the project at once: requests with it then answer 401. A key cannot revoke itself (409). A key bound to an environment revokes only keys bound to that same environment (403 for another)."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "API keys of a project: server keys manage and evaluate, client keys only evaluate.") {}

export class AuditGroup extends HttpApiGroup.make("audit")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/audit`.setUrlParams(AuditQuery).addSuccess(AuditPageDoc),
    "Read a project's audit log",
    "Every management write of the project (flags, targeting, segments, webhooks, environments, the project, its keys), newest first: who (`actor`: the API key, or `cli` for the command line), what (`action`, the event name, and `resource`), when, and the resource before and after as the API shows it (never a secret). Narrow it with `resourceType`, `resourceKey` and `environment`; page with `limit` (1-200, default 50) and `cursor` (the previous page's `nextCursor`). A key bound to an environment reads the entries of that environment and of none (not an unbound key's, which it does not list), flags in them with that environment's configuration only (a page may then hold fewer than `limit`); `environment=` another is 403."
  ))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "The audit log: who changed what, and when.") {}

export class EvaluationGroup extends HttpApiGroup.make("evaluation")
  .add(described(
    HttpApiEndpoint.post("evaluate", "/v1/evaluate").setPayload(EvaluateRequest.annotations({ examples: [Examples.evaluate] })).addSuccess(EvaluateResponseDoc),
    "Evaluate every flag for a context",
    "Evaluates all flags of the project in one environment for one context. With a global server key, `projectId` is required."
  ))
  .add(described(
    HttpApiEndpoint.get("flag")`/v1/flags/${flagKey}/eval`.setUrlParams(FlagEvalQuery).addSuccess(EvaluationResult),
    "Evaluate one flag for a context",
    "Evaluates one flag; `attributes` is URL-encoded JSON so numbers and booleans keep their types. An unknown flag answers 404."
  ))
  .add(described(
    HttpApiEndpoint.post("explain", "/v1/explain")
      .setPayload(ExplainRequest.annotations({ examples: [Examples.explain] }))
      .addSuccess(ExplanationSchema.annotations({ examples: [Examples.explained] })),
    "Explain one flag's evaluation for a context",
    "Evaluates one flag as `GET /v1/flags/{flagKey}/eval` does (`result` is that answer) and returns the path the evaluator took: the prerequisites with their results, each rule tried with each condition's attribute, the value read (or `absent`), operator, values and outcome, and for a rollout the bucket and the variation chosen. An unknown flag is a 404."
  ))
  .add(described(
    HttpApiEndpoint.get("config", "/v1/config")
      .setUrlParams(ConfigQuery)
      .setHeaders(ConfigHeaders)
      .addSuccess(ConfigSnapshot)
      .addSuccess(HttpApiSchema.Empty(304).annotations({ description: "Not modified: If-None-Match equals the current ETag." })),
    "Get the configuration for local evaluation",
    "Every flag and segment of one environment, for SDKs that evaluate in process. Poll with `If-None-Match` set to the last `ETag`: 304 while nothing changed."
  ).annotate(OpenApi.Transform, declareConfigETag))
  .middleware(EvaluationAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Evaluation, for applications and SDKs: client or server keys.") {}

// Typed code generation: the TypeScript module of `flagport codegen`.
export class CodegenGroup extends HttpApiGroup.make("codegen")
  .add(described(
    HttpApiEndpoint.get("typescript")`/v1/projects/${projectId}/codegen/typescript`
      .addSuccess(HttpApiSchema.Text({ contentType: "text/plain; charset=utf-8" })),
    "TypeScript declarations of the project's flags",
    "A TypeScript module declaring every flag key of the project with its type (`export type Flags`), for `createClient<Flags>(...)` of flagport/client: an unknown key, or a key in the getter of another type, then fails to compile. The same text as `flagport codegen --project P`."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Typed code generation for the SDK.") {}

export class FlagportApi extends HttpApi.make("flagport")
  .add(HealthGroup)
  .add(ProjectsGroup)
  .add(EnvironmentsGroup)
  .add(FlagsGroup)
  .add(SegmentsGroup)
  .add(WebhooksGroup)
  .add(KeysGroup)
  .add(SchedulesGroup)
  .add(ChangeRequestsGroup)
  .add(AuditGroup)
  .add(EventsGroup)
  .add(EvaluationGroup)
  .add(OfrepGroup)
  .add(StreamsGroup)
  .add(InsightsGroup)
  .add(InsightsReportGroup)
  .add(CodegenGroup)
  .add(FlagsAsCodeGroup)
  .add(SchemasGroup)
  .add(AuthGroup)
  .add(MeGroup)
  .add(UsersGroup)
  .add(MembersGroup)
  // Any operation: an unexpected failure is logged and answered 500 (Middleware.ts). The 431 that
  // node's parser answers before routing is added to the document by OpenApiDocument.ts.
  .addError(Errors.InternalError)
  .annotate(OpenApi.Title, "Flagport")
  .annotate(OpenApi.Version, pkg.version)
  .annotate(OpenApi.Description, "Self-hosted feature flags: management, evaluation and webhooks.")
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/license/mit" })
  .annotate(OpenApi.Transform, finishDocument) {}
