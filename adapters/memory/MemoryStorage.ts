import { Effect, Layer } from "effect"
import { StorageHealth } from "../../src/ports/StorageHealth.js"
import * as InProcessChangeFeed from "../change-feed/InProcessChangeFeed.js"
import * as InsightsRepository from "./InsightsRepository.js"
import * as AuditLog from "./AuditLog.js"
import * as MemoryDb from "./MemoryDb.js"
import * as Repositories from "./MemoryRepositories.js"
import * as ScheduleRepository from "./ScheduleRepository.js"
import * as MemoryStreamSecret from "./MemoryStreamSecret.js"
import * as WebhookRepository from "./WebhookRepository.js"

const health = Layer.succeed(StorageHealth, { check: Effect.void, backend: "memory" })

/**
 * Every storage port in memory (changes announced within this process), over one fresh MemoryDb (also provided, so that other memory
 * adapters, such as the webhook repository, can join its transactions). State lives as long as
 * the layer: nothing is persisted.
 */
export const layer = Layer.mergeAll(
  Repositories.projectRepository,
  Repositories.flagRepository,
  Repositories.segmentRepository,
  Repositories.apiKeyRepository,
  Repositories.eventOutbox,
  AuditLog.layer,
  WebhookRepository.layer,
  ScheduleRepository.layer,
  InsightsRepository.layer,
  InProcessChangeFeed.layer,
  MemoryStreamSecret.layer,
  health
).pipe(Layer.provideMerge(Repositories.environmentRepository), Layer.provideMerge(MemoryDb.layer))
