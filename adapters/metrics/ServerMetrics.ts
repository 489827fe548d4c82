/**
 * One server's /metrics: prom-client's registry with the process defaults (event-loop lag, heap,
 * CPU, handles), the request and evaluation cells this server fills, the gauges and counters read
 * when scraped (open streams, the webhook backlog, the database pool, the lane spans tracing
 * dropped), and the Effect metrics of the core and the adapters (EffectExport.ts).
 * docs/operations/operating.md lists every series.
 */
import { collectDefaultMetrics, Registry } from "prom-client"
import type { Backlog } from "../../src/ports/WebhookBacklog.js"
import * as ServiceMetrics from "../../src/services/operations/ServiceMetrics.js"
import type { PoolUseShape } from "./PoolUse.js"
import { promMetric, type PromMetric, type PromValues } from "./Cells.js"
import { declare, effectMetrics } from "./EffectExport.js"
import { EvaluationMetrics } from "./EvaluationMetrics.js"
import * as Instruments from "./Instruments.js"
import { RequestMetrics } from "./RequestMetrics.js"

/** What the server reads when scraped. */
export interface MetricsSources {
  readonly openStreams: () => number
  /** The webhook backlog; a failure leaves its series out of this scrape. */
  readonly backlog?: () => Promise<Backlog>
  /** The database pool's use (PostgreSQL); absent, its series are left out. */
  readonly pool?: PoolUseShape["measure"]
  /** Evaluation-lane spans dropped so far (tracing on); absent, its series is left out. */
  readonly laneSpansDropped?: () => number
}

/**
 * How long a scrape waits for the backlog's queries. They need a pool connection: with the pool
 * exhausted (the moment its gauges matter most) the scrape answers without the backlog's series
 * rather than wait for the queue.
 */
const BACKLOG_WAIT_MS = 2000

/** The promise's value, or undefined when it fails or takes longer than `ms`. */
const within = <A>(promise: Promise<A>, ms: number): Promise<A | undefined> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      () => {
        clearTimeout(timer)
        resolve(undefined)
      }
    )
  })

const ageSeconds = (oldest: string | null, now: number): number => (oldest === null ? 0 : Math.max(0, (now - Date.parse(oldest)) / 1000))

export class ServerMetrics {
  readonly requests = new RequestMetrics()
  readonly evaluations = new EvaluationMetrics()
  readonly contentType: string = Registry.PROMETHEUS_CONTENT_TYPE
  private readonly registry = new Registry()
  private sources: MetricsSources = { openStreams: () => 0 }

  constructor() {
    collectDefaultMetrics({ register: this.registry })
    declare(ServiceMetrics.all)
    declare(Instruments.all)
    for (const metric of [...this.requests.metrics(), ...this.evaluations.metrics(), ...this.gauges()]) this.register(metric)
  }

  /** The server's parts, once they are built (the lane's streams, the storage's backlog). */
  connect(sources: MetricsSources): void {
    this.sources = sources
  }

  private register(metric: PromMetric): void {
    // prom-client's registry takes any object with its metric shape (name, help, type, get).
    this.registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0])
  }

  private gauges(): ReadonlyArray<PromMetric> {
    let pending: Promise<Backlog | undefined> | undefined
    // Both backlog metrics come from one measurement per scrape.
    const backlog = (): Promise<Backlog | undefined> => {
      pending ??= within(this.sources.backlog?.() ?? Promise.resolve(undefined), BACKLOG_WAIT_MS).finally(() => {
        setTimeout(() => (pending = undefined), 0)
      })
      return pending
    }
    const backlogValues = (f: (b: Backlog, now: number) => readonly [number, number]) => async (): Promise<PromValues["values"]> => {
      const b = await backlog()
      if (b === undefined) return []
      const [outbox, deliveries] = f(b, Date.now())
      return [
        { labels: { stage: "outbox" }, value: outbox },
        { labels: { stage: "delivery" }, value: deliveries }
      ]
    }
    const pool = (f: (use: ReturnType<PoolUseShape["measure"]>) => number) => (): PromValues["values"] => {
      const measure = this.sources.pool
      return measure === undefined ? [] : [{ labels: {}, value: f(measure()) }]
    }
    return [
      promMetric("flagport_db_pool_connections", "gauge", "PostgreSQL: connections the pool holds open now (idle and in use).", pool((u) => u.total)),
      promMetric("flagport_db_pool_connections_idle", "gauge", "PostgreSQL: open connections no query is using.", pool((u) => u.idle)),
      promMetric("flagport_db_pool_waiting", "gauge", "PostgreSQL: queries waiting for a connection (the pool is at its bound).", pool((u) => u.waiting)),
      promMetric("flagport_db_pool_max_connections", "gauge", "PostgreSQL: the most connections the pool opens.", pool((u) => u.max)),
      promMetric(
        "flagport_trace_lane_spans_dropped_total",
        "counter",
        "Tracing on: evaluation-lane spans dropped because the exporter was behind (its queue at OTEL_BSP_MAX_QUEUE_SIZE).",
        () => {
          const dropped = this.sources.laneSpansDropped
          return dropped === undefined ? [] : [{ labels: {}, value: dropped() }]
        }
      ),
      promMetric("flagport_streams_open", "gauge", "Change streams (GET /v1/stream, OFREP event streams) open now.", () => [
        { labels: {}, value: this.sources.openStreams() }
      ]),
      promMetric(
        "flagport_webhook_backlog",
        "gauge",
        "What waits to reach webhooks: outbox events not yet fanned out (stage=outbox) and deliveries pending or retrying (stage=delivery).",
        backlogValues((b) => [b.outboxEvents, b.pendingDeliveries])
      ),
      promMetric(
        "flagport_webhook_backlog_oldest_age_seconds",
        "gauge",
        "Age of the oldest outbox event not fanned out (stage=outbox) and of the oldest pending delivery (stage=delivery); 0 when none.",
        backlogValues((b, now) => [ageSeconds(b.oldestEventAt, now), ageSeconds(b.oldestDeliveryAt, now)])
      )
    ]
  }

  /** The text Prometheus scrapes. */
  scrape(): Promise<string> {
    const effect = new Registry()
    for (const metric of effectMetrics("flagport_")) effect.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0])
    return Registry.merge([this.registry, effect]).metrics()
  }
}
