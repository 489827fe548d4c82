/**
 * What the client sends for experiments: the exposures of its own evaluations (`POST /v1/exposures`)
 * and the metric events of `client.track` (`POST /v1/track`), each through a bounded outbox
 * (Outbox.ts) flushed every interval, as soon as a full batch is queued, and at `close()`.
 *
 * An exposure is recorded only for an evaluation served by a rule the configuration names as
 * measured by a running experiment (`experiments` of `GET /v1/config`), with the unit that rule's
 * rollout buckets by, and once per (unit, flag, variation) within a flush window: a page that
 * evaluates a flag a hundred times sends one exposure.
 */
import { type CompiledRollout, type EvaluationResult, isIngestibleUnit, isStorableText, limit, type LocalContext, unitOf } from "./Core.js"
import type { Endpoint } from "./Endpoint.js"
import { Outbox, type OutboxHost } from "./Outbox.js"
import { sleep, type Timers } from "./Timers.js"
import type { DeliveryCounts } from "./Types.js"

/** One exposure as queued: the ISO timestamp is made when it is sent, not on the evaluating call. */
interface QueuedExposure {
  readonly flagKey: string
  readonly variationKey: string
  readonly ruleId: string
  readonly unit: string
  readonly at: number
}

/** One metric event as `track` queued it. */
interface QueuedEvent {
  readonly event: string
  readonly unit: string
  readonly value: number | undefined
  readonly at: number
}

/** The longest event name a metric may name (Experiment.ts's EventName). */
const MAX_EVENT_LENGTH = 128
/** The largest |value| the server sums (so no sum overflows). */
const MAX_VALUE = limit("ingestValue")



const iso = (at: number) => new Date(at).toISOString()

const exposureWire = (e: QueuedExposure) =>
  isIngestibleUnit(e.unit) ? { flagKey: e.flagKey, variationKey: e.variationKey, ruleId: e.ruleId, unit: e.unit, timestamp: iso(e.at) } : undefined

const eventWire = (e: QueuedEvent) => {
  if (typeof e.event !== "string" || e.event.length === 0 || e.event.length > MAX_EVENT_LENGTH || !isStorableText(e.event)) return undefined
  if (!isIngestibleUnit(e.unit)) return undefined
  if (e.value === undefined) return { event: e.event, unit: e.unit, timestamp: iso(e.at) }
  if (typeof e.value !== "number" || !Number.isFinite(e.value) || Math.abs(e.value) > MAX_VALUE) return undefined
  return { event: e.event, unit: e.unit, value: e.value, timestamp: iso(e.at) }
}

export interface DeliverySettings {
  /** Send the exposures of local evaluations (the `exposures` option). */
  readonly exposures: boolean
  readonly flushIntervalMs: number
  /** Items each outbox holds at most. */
  readonly capacity: number
}

export class Delivery {
  private readonly exposureOutbox: Outbox<QueuedExposure>
  private readonly eventOutbox: Outbox<QueuedEvent>
  /**
   * The units queued in this flush window, by the evaluator's result object: a rollout's results
   * are precomputed, one per (flag, rule, variation), so this keys (unit, flag, variation) without
   * building a string per evaluation.
   */
  private seen = new Map<EvaluationResult, Set<string>>()
  private soon: (() => void) | undefined
  /** Aborted by `close()`: ends the sends in flight, whose batches are then sent once more, with their ids. */
  private readonly sending = new AbortController()

  constructor(
    readonly settings: DeliverySettings,
    endpoint: Endpoint,
    private readonly timers: Timers,
    refused: (message: string) => void
  ) {
    const host: OutboxHost = { refused, batchReady: () => this.sendSoon() }
    this.exposureOutbox = new Outbox({ path: "/v1/exposures", field: "exposures", what: "exposures", at: (e) => e.at, wire: exposureWire }, endpoint, timers, settings.capacity, host)
    this.eventOutbox = new Outbox({ path: "/v1/track", field: "events", what: "metric events", at: (e) => e.at, wire: eventWire }, endpoint, timers, settings.capacity, host)
  }

  /**
   * An evaluation of a flag with measured rules (`measured[ruleIndex]`: the rollout of a rule a
   * running experiment measures, else null), with the context as evaluated. Synchronous and cheap:
   * a unit read, a set lookup, an array push.
   */
  expose(measured: ReadonlyArray<CompiledRollout | null>, result: EvaluationResult, context: LocalContext): void {
    const reason = result.reason
    if (reason.kind !== "RULE_MATCH" || result.variationKey === null || reason.ruleIndex === undefined) return
    const rollout = measured[reason.ruleIndex]
    if (rollout == null) return
    const unit = unitOf(rollout, context)
    if (unit === undefined) return
    let units = this.seen.get(result)
    if (units === undefined) {
      units = new Set()
      this.seen.set(result, units)
    } else if (units.has(unit)) return
    const exposure: QueuedExposure = { flagKey: result.flagKey, variationKey: result.variationKey, ruleId: reason.ruleId ?? "", unit, at: this.timers.now() }
    if (this.exposureOutbox.push(exposure)) units.add(unit)
  }

  /** `client.track`: a push, checked when sent (an invalid event is dropped and counted then). */
  track(event: string, unit: string, value: number | undefined): void {
    this.eventOutbox.push({ event, unit, value, at: this.timers.now() })
  }

  get counts(): { readonly exposures: DeliveryCounts; readonly events: DeliveryCounts } {
    return { exposures: this.exposureOutbox.delivery, events: this.eventOutbox.delivery }
  }

  /** A full batch is queued: send it on the next turn of the event loop (never on the pushing call). */
  private sendSoon(): void {
    if (this.soon !== undefined) return
    this.soon = this.timers.schedule(0, () => {
      this.soon = undefined
      void this.flush()
    })
  }

  /** Sends what both outboxes hold and starts a new dedupe window; true when nothing is left waiting. */
  async flush(signal: AbortSignal = this.sending.signal): Promise<boolean> {
    this.seen = new Map()
    const [exposures, events] = await Promise.all([this.exposureOutbox.flush(signal), this.eventOutbox.flush(signal)])
    return exposures && events
  }

  /**
   * The last flush, bounded by the request timeout: a send in flight is ended and its batch sent
   * again with its id (the server counts it once). What comes after is dropped and counted.
   */
  async close(): Promise<void> {
    this.soon?.()
    this.soon = undefined
    this.exposureOutbox.close()
    this.eventOutbox.close()
    this.sending.abort()
    await Promise.all([this.exposureOutbox.idle(), this.eventOutbox.idle()])
    await this.flush(new AbortController().signal)
  }
}

/** Flushes every `intervalMs` until `signal` aborts (the client's `close()` flushes the last time). */
export const runDelivery = async (delivery: Delivery, timers: Timers, intervalMs: number, signal: AbortSignal): Promise<void> => {
  while (!signal.aborted) {
    await sleep(timers, intervalMs, signal)
    if (signal.aborted) return
    await delivery.flush(signal)
  }
}
