import { Migrator } from "@effect/sql"
import type { SqlClient } from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StorageError } from "../../src/ports/StorageError.js"
import Core from "./migrations/0001_core.js"
import Webhooks from "./migrations/0002_webhooks.js"
import Retention from "./migrations/0003_retention.js"
import WebhookWindows from "./migrations/0004_webhook_windows.js"
import KeyEnvironments from "./migrations/0005_key_environments.js"
import AuditLog from "./migrations/0006_audit_log.js"
import Schedules from "./migrations/0007_schedules.js"
import StreamSecret from "./migrations/0008_stream_secret.js"
import Insights from "./migrations/0009_insights.js"
import Prerequisites from "./migrations/0010_prerequisites.js"
import ConfigVersions from "./migrations/0011_config_versions.js"
import WebhookAnswers from "./migrations/0012_webhook_answers.js"
import InsightsHour from "./migrations/0013_insights_hour.js"
import EnvironmentClientConfig from "./migrations/0014_environment_client_config.js"
import People from "./migrations/0015_people.js"
import ProtectedEnvironments from "./migrations/0016_protected_environments.js"
import ChangeRequests from "./migrations/0017_change_requests.js"
import OutboxTrace from "./migrations/0018_outbox_trace.js"
import AuditCommitOrder from "./migrations/0019_audit_commit_order.js"
import Experiments from "./migrations/0020_experiments.js"
import SignInFailureRetention from "./migrations/0021_sign_in_failure_retention.js"
import SignInFailureClient from "./migrations/0022_sign_in_failure_client.js"
import SsoIdentities from "./migrations/0023_sso_identities.js"
import EmailNormalized from "./migrations/0024_email_normalized.js"
import KeyMakers from "./migrations/0025_key_makers.js"
import ExperimentUnits from "./migrations/0026_experiment_units.js"
import ExperimentUnitMetrics from "./migrations/0027_experiment_unit_metrics.js"
import SegmentKeys from "./migrations/0028_segment_keys.js"
import IngestBatchRoutes from "./migrations/0029_ingest_batch_routes.js"
import SegmentKeyChanges from "./migrations/0030_segment_key_changes.js"
import ReleasePlans from "./migrations/0031_release_plans.js"
import AnalysisTotals from "./migrations/0032_analysis_totals.js"
import SegmentKeyAttribute from "./migrations/0033_segment_key_attribute.js"
import SsoLinkAllowances from "./migrations/0034_sso_link_allowances.js"
import { exclusively } from "./StartupLock.js"

/**
 * Every schema migration, in order. Policy (docs/operations/storage.md): migrations are append-only: a
 * released migration is never edited; a change is a new file with the next number, registered
 * here. Keys are `<number>_<name>`.
 */
export const migrations = {
  "0001_core": Core,
  "0002_webhooks": Webhooks,
  "0003_retention": Retention,
  "0004_webhook_windows": WebhookWindows,
  "0005_key_environments": KeyEnvironments,
  "0006_audit_log": AuditLog,
  "0007_schedules": Schedules,
  "0008_stream_secret": StreamSecret,
  "0009_insights": Insights,
  "0010_prerequisites": Prerequisites,
  "0011_config_versions": ConfigVersions,
  "0012_webhook_answers": WebhookAnswers,
  "0013_insights_hour": InsightsHour,
  "0014_environment_client_config": EnvironmentClientConfig,
  "0015_people": People,
  "0016_protected_environments": ProtectedEnvironments,
  "0017_change_requests": ChangeRequests,
  "0018_outbox_trace": OutboxTrace,
  "0019_audit_commit_order": AuditCommitOrder,
  "0020_experiments": Experiments,
  "0021_sign_in_failure_retention": SignInFailureRetention,
  "0022_sign_in_failure_client": SignInFailureClient,
  "0023_sso_identities": SsoIdentities,
  "0024_email_normalized": EmailNormalized,
  "0025_key_makers": KeyMakers,
  "0026_experiment_units": ExperimentUnits,
  "0027_experiment_unit_metrics": ExperimentUnitMetrics,
  "0028_segment_keys": SegmentKeys,
  "0029_ingest_batch_routes": IngestBatchRoutes,
  "0030_segment_key_changes": SegmentKeyChanges,
  "0031_release_plans": ReleasePlans,
  "0032_analysis_totals": AnalysisTotals,
  "0033_segment_key_attribute": SegmentKeyAttribute,
  "0034_sso_link_allowances": SsoLinkAllowances
}

/** Our own bookkeeping table, so the kit can share a database with its host application. */
export const MIGRATIONS_TABLE = "flagport_migrations"

/**
 * Applies pending migrations (idempotent; on PostgreSQL, processes starting together take turns
 * under the start-up lock, StartupLock.ts). `Migrator.make({})` rather than the dialect migrators:
 * those need FileSystem / Path / CommandExecutor services for schema dumps, which we do not use.
 * Returns the applied ones.
 */
export const run: Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, StorageError, SqlClient> =
  Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: MIGRATIONS_TABLE }).pipe(
    Effect.mapError((cause) => new StorageError({ message: `Database migration failed: ${cause.message}`, cause })),
    exclusively,
    Effect.withSpan("Migrations.run")
  )

/** Runs the migrations when the layer is built (at startup). */
export const layer: Layer.Layer<never, StorageError, SqlClient> = Layer.effectDiscard(run)
