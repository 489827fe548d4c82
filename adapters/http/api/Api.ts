/**
 * The HttpApi declaration: every endpoint of the specification plus the contract's extra ones,
 * one group per resource, each declared in its feature's folder (`flags/FlagsGroup.ts`, ...) beside
 * its handlers (`flags/FlagsLive.ts`). This is the single source of the routes, the request schemas
 * (both HTTP lanes decode with them) and the OpenAPI document.
 *
 * Payload schemas are annotated `errors: "all"` (every problem is reported, not only the first)
 * and `onExcessProperty: "error"` (unknown JSON fields are rejected).
 *
 * Each operation declares only the error statuses it can return: the security middlewares their
 * 400/401/403/413/415/500, a group or endpoint the envelopes its handlers can produce (the
 * handlers' error types, from `Errors.EnvelopeOf`, make the compiler insist), the API only 500 (and
 * the document the 431 that node's parser answers before routing, see OpenApiDocument.ts).
 *
 * The order of the groups is the order of the document's tags and paths (docs/openapi.json).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import pkg from "../../../package.json" with { type: "json" }
import * as Errors from "../shared/Errors.js"
import { FlagsAsCodeGroup } from "./ascode/FlagsAsCodeGroup.js"
import { SchemasGroup } from "./ascode/SchemasGroup.js"
import { AuditGroup } from "./audit/AuditGroup.js"
import { ChangeRequestsGroup } from "./changes/ChangeRequestsGroup.js"
import { CodegenGroup } from "./codegen/CodegenGroup.js"
import { EnvironmentsGroup } from "./environments/EnvironmentsGroup.js"
import { EvaluationGroup } from "./evaluation/EvaluationGroup.js"
import { OfrepGroup } from "./evaluation/OfrepGroup.js"
import { StreamsGroup } from "./evaluation/StreamsGroup.js"
import { EventsGroup } from "./events/EventsGroup.js"
import { ExperimentsGroup } from "./experiments/ExperimentsGroup.js"
import { ReleasePlansGroup } from "./releaseplans/ReleasePlansGroup.js"
import { ExposuresGroup } from "./experiments/ExposuresGroup.js"
import { FlagdGroup } from "./flagd/FlagdGroup.js"
import { TrackGroup } from "./experiments/TrackGroup.js"
import { FlagsGroup } from "./flags/FlagsGroup.js"
import { HealthGroup } from "./health/HealthGroup.js"
import { InsightsGroup } from "./insights/InsightsGroup.js"
import { InsightsReportGroup } from "./insights/InsightsReportGroup.js"
import { KeysGroup } from "./keys/KeysGroup.js"
import { finishDocument } from "./OpenApiDocument.js"
import { AuthGroup } from "./people/AuthGroup.js"
import { MeGroup } from "./people/MeGroup.js"
import { MembersGroup } from "./people/MembersGroup.js"
import { UsersGroup } from "./people/UsersGroup.js"
import { ProjectsGroup } from "./projects/ProjectsGroup.js"
import { SchedulesGroup } from "./schedules/SchedulesGroup.js"
import { SegmentKeysGroup } from "./segments/SegmentKeysGroup.js"
import { SegmentsGroup } from "./segments/SegmentsGroup.js"
import { WebhooksGroup } from "./webhooks/WebhooksGroup.js"

export class FlagportApi extends HttpApi.make("flagport")
  .add(HealthGroup)
  .add(ProjectsGroup)
  .add(EnvironmentsGroup)
  .add(FlagsGroup)
  .add(SegmentsGroup)
  .add(SegmentKeysGroup)
  .add(WebhooksGroup)
  .add(KeysGroup)
  .add(SchedulesGroup)
  .add(ChangeRequestsGroup)
  .add(ExperimentsGroup)
  .add(ReleasePlansGroup)
  .add(AuditGroup)
  .add(EventsGroup)
  .add(EvaluationGroup)
  .add(OfrepGroup)
  .add(StreamsGroup)
  .add(InsightsGroup)
  .add(InsightsReportGroup)
  .add(ExposuresGroup)
  .add(TrackGroup)
  .add(CodegenGroup)
  .add(FlagsAsCodeGroup)
  .add(FlagdGroup)
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
