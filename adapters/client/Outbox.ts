/**
 * A bounded outbox of items (exposures, metric events) for one ingestion route: `push` is an
 * array push (the evaluating or tracking call never waits on the network), `flush` sends what is
 * queued in batches of at most the server's item limit, each with a batch id. A batch the server
 * could not take (unreachable, timed out, 408, 429, 5xx) is held and resent, same id, on the next
 * flush, so the server counts it once however often it is retried. The outbox never grows past
 * its capacity: what comes while it is full is dropped and counted, as is a batch the server
 * refused (another 4xx: reported once) and an item too old for the server to accept, whether
 * still queued or in a held batch.
 *
 * A held batch whose oldest items grew too old while it waited is resent without them, under the
 * same id: the server would refuse it whole for one such item. The same id, not a new one: the
 * answer to an earlier try may have been lost after the server wrote the batch, and then the id is
 * what makes the rest count once (a new id would count them again); when it was not written, the
 * rest are written under that id.
 */
import { limit } from "./Core.js"
import { authorization, deadline, type Endpoint, errorMessage } from "./Endpoint.js"
import type { Timers } from "./Timers.js"
import type { DeliveryCounts } from "./Types.js"

/** Most items per request (the server's limit). */
export const BATCH_SIZE = limit("ingestItems")

/**
 * Items older than this are not sent: the server refuses a timestamp older than 24 hours, and
 * one such item would cost its whole batch. Five minutes short of it, for the request's way there.
 */
const MAX_AGE_MS = limit("ingestAge") * 3_600_000 - 300_000

export interface OutboxRoute<T> {
  /** `/v1/exposures` or `/v1/track`. */
  readonly path: string
  /** The body's list: `exposures` or `events`. */
  readonly field: string
  /** What the items are, for the refusal's message ("exposures", "metric events"). */
  readonly what: string
  /** When the item happened (epoch milliseconds). */
  readonly at: (item: T) => number
  /** The item as the route takes it, or undefined when the server would refuse it (dropped as invalid). */
  readonly wire: (item: T) => object | undefined
}

export interface OutboxHost {
  /** A refusal to report (once per distinct message, by the client's `error` event). */
  readonly refused: (message: string) => void
  /** A full batch is queued: send it soon rather than at the next interval. */
  readonly batchReady: () => void
}

interface HeldBatch {
  readonly batchId: string
  readonly items: ReadonlyArray<object>
  /** When each item happened (epoch milliseconds), in the order of `items`. */
  readonly ats: ReadonlyArray<number>
}

type Outcome = "sent" | "refused" | "retry"

/** A batch id prefix unique to this outbox: random, so two processes (or two clients) never share ids. */
const randomPrefix = (): string => {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.()
  return uuid ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`
}

export class Outbox<T> {
  private queue: Array<T> = []
  /** The batch being sent or waiting to be resent, with its id. */
  private held: HeldBatch | undefined
  private flushing: Promise<boolean> | undefined
  private readonly prefix = randomPrefix()
  private batches = 0
  private closed = false
  private readonly counts = { sent: 0, full: 0, refused: 0, invalid: 0, expired: 0, closed: 0 }

  constructor(
    private readonly route: OutboxRoute<T>,
    private readonly endpoint: Endpoint,
    private readonly timers: Timers,
    private readonly capacity: number,
    private readonly host: OutboxHost
  ) {}

  /** Queues an item; false (and counted) when the outbox is full or closed. Never waits, never throws. */
  push(item: T): boolean {
    if (this.closed) {
      this.counts.closed++
      return false
    }
    const queue = this.queue
    if (queue.length + (this.held === undefined ? 0 : this.held.items.length) >= this.capacity) {
      this.counts.full++
      return false
    }
    queue.push(item)
    if (queue.length === BATCH_SIZE) this.host.batchReady()
    return true
  }

  /** What was sent, what waits, and what was dropped and why. */
  get delivery(): DeliveryCounts {
    const { closed, expired, full, invalid, refused, sent } = this.counts
    return { pending: this.queue.length + (this.held?.items.length ?? 0), sent, dropped: { full, refused, invalid, expired, closed } }
  }

  /** No more items: what is pushed from now on is dropped (counted as `closed`). */
  close(): void {
    this.closed = true
  }

  /**
   * Sends everything queued (a held batch first, with its id); one flush at a time, a second call
   * joins the one running. True when nothing is left waiting.
   */
  flush(signal: AbortSignal): Promise<boolean> {
    if (this.flushing !== undefined) return this.flushing
    const flushing = this.sendAll(signal).finally(() => (this.flushing = undefined))
    this.flushing = flushing
    return flushing
  }

  /** Settles once no flush is running. */
  async idle(): Promise<void> {
    await this.flushing
  }

  private async sendAll(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const batch = this.held === undefined ? this.nextBatch() : this.unexpired(this.held)
      if (batch === undefined) return true
      this.held = batch
      const outcome = await this.post(batch, signal)
      if (outcome === "retry") return false
      this.held = undefined
      if (outcome === "sent") this.counts.sent += batch.items.length
      else this.counts.refused += batch.items.length
    }
  }

  /** The held batch without the items that grew too old while it waited (counted); undefined when none is left. */
  private unexpired(held: HeldBatch): HeldBatch | undefined {
    const oldest = this.timers.now() - MAX_AGE_MS
    if (held.ats.every((at) => at >= oldest)) return held
    const items: Array<object> = []
    const ats: Array<number> = []
    held.ats.forEach((at, i) => {
      if (at < oldest) this.counts.expired++
      else {
        items.push(held.items[i]!)
        ats.push(at)
      }
    })
    this.held = undefined
    return items.length === 0 ? this.nextBatch() : { batchId: held.batchId, items, ats }
  }

  /** The next batch from the queue, its items as the route takes them (the invalid and the expired counted, not sent). */
  private nextBatch(): HeldBatch | undefined {
    const oldest = this.timers.now() - MAX_AGE_MS
    const items: Array<object> = []
    const ats: Array<number> = []
    while (items.length < BATCH_SIZE && this.queue.length > 0) {
      const taken = this.queue.splice(0, BATCH_SIZE - items.length)
      for (const item of taken) {
        if (this.route.at(item) < oldest) {
          this.counts.expired++
          continue
        }
        const wired = this.route.wire(item)
        if (wired === undefined) this.counts.invalid++
        else {
          items.push(wired)
          ats.push(this.route.at(item))
        }
      }
    }
    if (items.length === 0) return undefined
    return { batchId: `${this.prefix}-${++this.batches}`, items, ats }
  }

  private async post(batch: HeldBatch, signal: AbortSignal): Promise<Outcome> {
    const { endpoint } = this
    const request = deadline(this.timers, signal, endpoint.requestTimeoutMs)
    const body: Record<string, unknown> = { batchId: batch.batchId, [this.route.field]: batch.items }
    if (endpoint.environment !== undefined) body.environment = endpoint.environment
    if (endpoint.projectId !== undefined) body.projectId = endpoint.projectId
    try {
      const response = await endpoint.fetch(`${endpoint.url.replace(/\/+$/, "")}${this.route.path}`, {
        method: "POST",
        headers: { authorization: authorization(endpoint), "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: request.signal
      })
      const status = response.status
      if (status >= 200 && status < 300) {
        await response.body?.cancel()
        return "sent"
      }
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        this.host.refused(`the server refused ${this.route.what}: ${await errorMessage(response)}`)
        return "refused"
      }
      await response.body?.cancel()
      return "retry"
    } catch {
      // Unreachable or timed out: the batch is resent, with its id, on the next flush.
      return "retry"
    } finally {
      request.done()
    }
  }
}
