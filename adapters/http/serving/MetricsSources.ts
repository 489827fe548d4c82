/**
 * What /metrics reads from the storage when scraped: the webhook backlog (a port) and the
 * database pool's use (PostgreSQL's, adapters/metrics/PoolUse.ts). Neither is in the HttpServices
 * type, so both are taken while the services are in reach: the runtime's own context holds only
 * what the app layer outputs. Absent (memory storage has no pool; SQLite none either), their
 * series are left out.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { PoolUse, type PoolUseShape } from "../../metrics/PoolUse.js"
import type { MetricsSources } from "../../metrics/ServerMetrics.js"
import { WebhookBacklog, type WebhookBacklogShape } from "../../../src/ports/WebhookBacklog.js"

interface StorageSources {
  readonly backlog: Option.Option<WebhookBacklogShape>
  readonly pool: Option.Option<PoolUseShape>
}

export class StorageMetricsSources extends Context.Tag("@flagport/http/StorageMetricsSources")<StorageMetricsSources, StorageSources>() {}

export const storageMetricsSources = Layer.effect(
  StorageMetricsSources,
  Effect.all({ backlog: Effect.serviceOption(WebhookBacklog), pool: Effect.serviceOption(PoolUse) })
)

/**
 * The sources a ServerMetrics connects to; `run` runs the backlog's query in the handlers' runtime;
 * `laneSpansDropped` is there when tracing is on (ActiveTracing).
 */
export const metricsSources = (
  storage: StorageSources,
  openStreams: () => number,
  run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>,
  laneSpansDropped: Option.Option<() => number> = Option.none()
): MetricsSources => {
  const { backlog, pool } = storage
  return {
    openStreams,
    ...(Option.isSome(backlog) ? { backlog: () => run(backlog.value.measure) } : {}),
    ...(Option.isSome(pool) ? { pool: pool.value.measure } : {}),
    ...(Option.isSome(laneSpansDropped) ? { laneSpansDropped: laneSpansDropped.value } : {})
  }
}
