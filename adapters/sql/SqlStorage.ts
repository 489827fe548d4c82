import type { SqlClient } from "@effect/sql/SqlClient"
import { Layer } from "effect"
import * as Migrations from "./Migrations.js"
import * as SqlApiKeyRepository from "./SqlApiKeyRepository.js"
import * as SqlAuditLog from "./SqlAuditLog.js"
import * as SqlEnvironmentRepository from "./SqlEnvironmentRepository.js"
import * as SqlEventOutbox from "./SqlEventOutbox.js"
import * as SqlFlagRepository from "./SqlFlagRepository.js"
import * as SqlHealth from "./SqlHealth.js"
import * as SqlInsightsRepository from "./SqlInsightsRepository.js"
import * as SqlProjectRepository from "./SqlProjectRepository.js"
import * as ScheduleRepository from "./ScheduleRepository.js"
import * as SqlSegmentRepository from "./SqlSegmentRepository.js"
import * as SqlStreamSecret from "./SqlStreamSecret.js"
import * as SqlTransactor from "./SqlTransactor.js"
import * as WebhookRepository from "./WebhookRepository.js"

/**
 * Every storage port over whatever SqlClient is provided (SQLite or PostgreSQL), after running
 * the migrations: building this layer brings the schema up to date.
 */
export const layer = Layer.mergeAll(
  SqlProjectRepository.layer,
  SqlEnvironmentRepository.layer,
  SqlFlagRepository.layer,
  SqlSegmentRepository.layer,
  SqlApiKeyRepository.layer,
  SqlEventOutbox.layer,
  SqlAuditLog.layer,
  SqlTransactor.layer,
  SqlHealth.layer,
  WebhookRepository.layer,
  ScheduleRepository.layer,
  SqlStreamSecret.layer,
  SqlInsightsRepository.layer
).pipe(Layer.provideMerge(Migrations.layer))

export type Requirements = SqlClient
