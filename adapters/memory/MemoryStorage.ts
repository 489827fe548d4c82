import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StorageHealth } from "../../src/ports/StorageHealth.js"
import * as InProcessChangeFeed from "../change-feed/InProcessChangeFeed.js"
import * as MemoryApiKeyRepository from "./MemoryApiKeyRepository.js"
import * as MemoryAuditLog from "./MemoryAuditLog.js"
import * as MemoryChangeRequestRepository from "./MemoryChangeRequestRepository.js"
import * as MemoryDb from "./MemoryDb.js"
import * as MemoryEnvironmentRepository from "./MemoryEnvironmentRepository.js"
import * as MemoryEventOutbox from "./MemoryEventOutbox.js"
import * as MemoryExperimentRepository from "./MemoryExperimentRepository.js"
import * as MemoryExperimentUnitRepository from "./MemoryExperimentUnitRepository.js"
import * as MemoryFlagRepository from "./MemoryFlagRepository.js"
import * as MemoryInsightsRepository from "./MemoryInsightsRepository.js"
import * as MemoryProjectRepository from "./MemoryProjectRepository.js"
import * as MemoryReleasePlanRepository from "./MemoryReleasePlanRepository.js"
import * as MemoryScheduleRepository from "./MemoryScheduleRepository.js"
import * as MemorySegmentKeyRepository from "./MemorySegmentKeyRepository.js"
import * as MemorySegmentRepository from "./MemorySegmentRepository.js"
import * as MemorySessionRepository from "./MemorySessionRepository.js"
import * as MemorySetupTokenRepository from "./MemorySetupTokenRepository.js"
import * as MemorySignInFailureRepository from "./MemorySignInFailureRepository.js"
import * as MemorySsoIdentityRepository from "./MemorySsoIdentityRepository.js"
import * as MemoryStreamSecret from "./MemoryStreamSecret.js"
import * as MemoryUserRepository from "./MemoryUserRepository.js"
import * as MemoryWebhookBacklog from "./MemoryWebhookBacklog.js"
import * as MemoryWebhookRepository from "./MemoryWebhookRepository.js"

const health = Layer.succeed(StorageHealth, { check: Effect.void, backend: "memory" })

/**
 * Every storage port in memory (changes announced within this process), over one fresh MemoryDb
 * (also provided, so that other memory adapters can join its transactions). State lives as long
 * as the layer: nothing is persisted.
 */
const repositories = Layer.mergeAll(
  MemoryFlagRepository.layer,
  MemorySegmentRepository.layer,
  MemorySegmentKeyRepository.layer,
  MemoryApiKeyRepository.layer,
  MemoryEventOutbox.layer,
  MemoryAuditLog.layer,
  MemoryWebhookRepository.layer,
  MemoryScheduleRepository.layer,
  MemoryInsightsRepository.layer,
  InProcessChangeFeed.layer,
  MemoryStreamSecret.layer,
  MemoryUserRepository.layer,
  MemorySessionRepository.layer,
  MemorySetupTokenRepository.layer,
  MemorySignInFailureRepository.layer,
  MemorySsoIdentityRepository.layer,
  MemoryChangeRequestRepository.layer,
  MemoryExperimentRepository.layer,
  MemoryExperimentUnitRepository.layer,
  MemoryReleasePlanRepository.layer,
  health
).pipe(
  Layer.provideMerge(MemoryEnvironmentRepository.layer),
  // Memberships name projects: the user repository checks them as the SQL foreign key does.
  Layer.provideMerge(MemoryProjectRepository.layer),
  Layer.provideMerge(MemoryDb.layer)
)

/** The repositories, with the webhook backlog read through them. */
export const layer = MemoryWebhookBacklog.layer.pipe(Layer.provideMerge(repositories))
