import * as Layer from "effect/Layer"
import * as Migrations from "./Migrations.js"
import * as SqlApiKeyRepository from "./SqlApiKeyRepository.js"
import * as SqlAuditLog from "./SqlAuditLog.js"
import * as SqlChangeRequestRepository from "./SqlChangeRequestRepository.js"
import * as SqlEnvironmentRepository from "./SqlEnvironmentRepository.js"
import * as SqlEventOutbox from "./SqlEventOutbox.js"
import * as SqlExperimentRepository from "./SqlExperimentRepository.js"
import * as SqlExperimentUnitRepository from "./SqlExperimentUnitRepository.js"
import * as SqlFlagRepository from "./SqlFlagRepository.js"
import * as SqlHealth from "./SqlHealth.js"
import * as SqlInsightsRepository from "./SqlInsightsRepository.js"
import * as SqlProjectRepository from "./SqlProjectRepository.js"
import * as SqlReleasePlanRepository from "./SqlReleasePlanRepository.js"
import * as SqlScheduleRepository from "./SqlScheduleRepository.js"
import * as SqlSegmentKeyRepository from "./SqlSegmentKeyRepository.js"
import * as SqlSegmentRepository from "./SqlSegmentRepository.js"
import * as SqlSessionRepository from "./SqlSessionRepository.js"
import * as SqlSetupTokenRepository from "./SqlSetupTokenRepository.js"
import * as SqlSignInFailureRepository from "./SqlSignInFailureRepository.js"
import * as SqlSsoIdentityRepository from "./SqlSsoIdentityRepository.js"
import * as SqlStreamSecret from "./SqlStreamSecret.js"
import * as SqlTransactor from "./SqlTransactor.js"
import * as SqlUserRepository from "./SqlUserRepository.js"
import * as SqlWebhookBacklog from "./SqlWebhookBacklog.js"
import * as SqlWebhookRepository from "./SqlWebhookRepository.js"

/**
 * Every storage port over whatever SqlClient is provided (SQLite or PostgreSQL), after running
 * the migrations: building this layer brings the schema up to date.
 */
export const layer = Layer.mergeAll(
  SqlProjectRepository.layer,
  SqlEnvironmentRepository.layer,
  SqlFlagRepository.layer,
  SqlSegmentRepository.layer,
  SqlSegmentKeyRepository.layer,
  SqlApiKeyRepository.layer,
  SqlEventOutbox.layer,
  SqlAuditLog.layer,
  SqlTransactor.layer,
  SqlHealth.layer,
  SqlWebhookRepository.layer,
  SqlWebhookBacklog.layer,
  SqlScheduleRepository.layer,
  SqlStreamSecret.layer,
  SqlInsightsRepository.layer,
  SqlUserRepository.layer,
  SqlSessionRepository.layer,
  SqlSetupTokenRepository.layer,
  SqlSignInFailureRepository.layer,
  SqlSsoIdentityRepository.layer,
  SqlChangeRequestRepository.layer,
  SqlExperimentRepository.layer,
  SqlExperimentUnitRepository.layer,
  SqlReleasePlanRepository.layer
).pipe(Layer.provideMerge(Migrations.layer))
