/**
 * Every group's handlers as one layer, for serving/App.ts. Each group is handled beside its
 * declaration (`flags/FlagsLive.ts` beside `flags/FlagsGroup.ts`): each endpoint is one call to a
 * use case, its failures mapped by the one mapping of `Errors.ts`. Authorization already happened
 * in the security middleware (`ManagementAccess` carries the allowed scope). The evaluation
 * endpoints call the same methods as the lane routes (evaluation/ViaLane.ts), so both paths answer alike.
 */
import * as Layer from "effect/Layer"
import { FlagsAsCodeLive } from "./ascode/FlagsAsCodeLive.js"
import { FlagdLive } from "./flagd/FlagdLive.js"
import { SchemasLive } from "./ascode/SchemasLive.js"
import { AuditLive } from "./audit/AuditLive.js"
import { ChangeRequestsLive } from "./changes/ChangeRequestsLive.js"
import { CodegenLive } from "./codegen/CodegenLive.js"
import { EnvironmentsLive } from "./environments/EnvironmentsLive.js"
import { EvaluationLive } from "./evaluation/EvaluationLive.js"
import { OfrepLive } from "./evaluation/OfrepLive.js"
import { StreamsLive } from "./evaluation/StreamsLive.js"
import { EventsLive } from "./events/EventsLive.js"
import { ExperimentsLive } from "./experiments/ExperimentsLive.js"
import { ReleasePlansLive } from "./releaseplans/ReleasePlansLive.js"
import { ExposuresLive } from "./experiments/ExposuresLive.js"
import { TrackLive } from "./experiments/TrackLive.js"
import { FlagsLive } from "./flags/FlagsLive.js"
import { HealthLive } from "./health/HealthLive.js"
import { InsightsLive } from "./insights/InsightsLive.js"
import { InsightsReportLive } from "./insights/InsightsReportLive.js"
import { KeysLive } from "./keys/KeysLive.js"
import { AuthLive } from "./people/AuthLive.js"
import { MeLive } from "./people/MeLive.js"
import { MembersLive } from "./people/MembersLive.js"
import { UsersLive } from "./people/UsersLive.js"
import { ProjectsLive } from "./projects/ProjectsLive.js"
import { SchedulesLive } from "./schedules/SchedulesLive.js"
import { SegmentKeysLive } from "./segments/SegmentKeysLive.js"
import { SegmentsLive } from "./segments/SegmentsLive.js"
import { WebhooksLive } from "./webhooks/WebhooksLive.js"

/** Every group's handlers (a group left out fails the build of the API layer: HttpApiBuilder.api needs each). */
export const HandlersLive = Layer.mergeAll(
  HealthLive,
  ProjectsLive,
  EnvironmentsLive,
  FlagsLive,
  SegmentsLive,
  SegmentKeysLive,
  WebhooksLive,
  KeysLive,
  SchedulesLive,
  ChangeRequestsLive,
  ExperimentsLive,
  ReleasePlansLive,
  AuditLive,
  EventsLive,
  EvaluationLive,
  OfrepLive,
  StreamsLive,
  InsightsLive,
  InsightsReportLive,
  ExposuresLive,
  TrackLive,
  CodegenLive,
  FlagsAsCodeLive,
  FlagdLive,
  SchemasLive,
  AuthLive,
  MeLive,
  UsersLive,
  MembersLive
)
