/**
 * The one place that chooses a process's background workers: audit log, failed sign-in,
 * exposure batch id and orphaned segment key retention always, the
 * webhook dispatcher (over the HTTP transport, with its start-up exposure warning) and the
 * scheduler of scheduled changes unless left out. Several processes may run each on one database.
 */
import * as Layer from "effect/Layer"
import * as AuditRetention from "../../src/services/audit/AuditRetention.js"
import * as ExposureBatchRetention from "../../src/services/experiments/ExposureBatchRetention.js"
import * as KeyListRetention from "../../src/services/segments/KeyListRetention.js"
import * as SignInFailureRetention from "../../src/services/people/SignInFailureRetention.js"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import * as WebhookDispatcher from "../../src/services/webhooks/WebhookDispatcher.js"
import * as ExposureWarning from "../webhook-http/ExposureWarning.js"
import * as WebhookHttp from "../webhook-http/WebhookHttp.js"

export interface WorkerOptions {
  /** Run the webhook dispatcher in this process (default true). */
  readonly webhooks?: boolean
  /** Run the scheduler of scheduled changes in this process (default true). */
  readonly schedules?: boolean
}

/** The background workers `options` choose, over what they need. */
const workers = (options: WorkerOptions) => {
  const retention = Layer.mergeAll(AuditRetention.layerConfig(), SignInFailureRetention.layer(), ExposureBatchRetention.layer(), KeyListRetention.layer())
  const webhooks =
    options.webhooks === false
      ? Layer.empty
      : Layer.merge(WebhookDispatcher.layerConfig().pipe(Layer.provide(WebhookHttp.layerConfig)), ExposureWarning.layer)
  const schedules = options.schedules === false ? Layer.empty : Scheduler.layerConfig
  return Layer.mergeAll(retention, webhooks, schedules)
}

/**
 * `services` with the workers running for the layer's lifetime: audit retention
 * (FLAGPORT_AUDIT_RETENTION_DAYS), the dispatcher (FLAGPORT_WEBHOOK_BLOCK_PRIVATE,
 * FLAGPORT_WEBHOOK_RETENTION_DAYS) and the scheduler (FLAGPORT_SCHEDULER_LEASE_SECONDS,
 * FLAGPORT_RELEASE_PLAN_CHECK_SECONDS). The workers take what they need from
 * `services` (the composition root's, Composition.ts); what it lacks stays a requirement of the
 * result, so this file needs nothing of the root that uses it.
 */
export const withWorkers = <A, E, R>(services: Layer.Layer<A, E, R>, options: WorkerOptions = {}) =>
  Layer.merge(services, workers(options).pipe(Layer.provide(services)))
