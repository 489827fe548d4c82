/**
 * The SDK's evaluation insights: every evaluation it makes is counted here (a few Map
 * operations), and the counts are sent, batched, to `POST /v1/insights` every interval and once
 * more at `close()`, so the server's per-flag series and stale status include what applications
 * evaluate in process. A batch the server could not take (unreachable, 5xx) is kept for the next
 * send; one it refused (4xx) is dropped, and the refusal reported once.
 */
import { authorization, deadline, type Endpoint, errorMessage } from "./Endpoint.js"
import { sleep, type Timers } from "./Timers.js"

/** Most entries per request (the server's limit). */
const MAX_COUNTS_PER_REPORT = 1000

interface Batch {
  readonly from: number
  readonly counts: Map<string, Map<string, number>>
}

export interface InsightsHost {
  /** A refusal to report (once per distinct message, by the client's `error` event). */
  readonly refused: (message: string) => void
}

export class InsightsReporter {
  private batch: Batch | null = null

  constructor(
    private readonly endpoint: Endpoint,
    private readonly timers: Timers,
    private readonly host: InsightsHost
  ) {}

  /** One evaluation of `variationKey` of `flagKey` (null: nothing was served, nothing counted). */
  count(flagKey: string, variationKey: string | null): void {
    if (variationKey === null) return
    const batch = (this.batch ??= { from: this.timers.now(), counts: new Map() })
    let flag = batch.counts.get(flagKey)
    if (flag === undefined) {
      flag = new Map()
      batch.counts.set(flagKey, flag)
    }
    flag.set(variationKey, (flag.get(variationKey) ?? 0) + 1)
  }

  /** Sends what was counted; true when there was nothing to send or the server took it all. */
  async send(signal: AbortSignal): Promise<boolean> {
    const batch = this.batch
    if (batch === null) return true
    this.batch = null
    const to = this.timers.now()
    const entries = [...batch.counts].flatMap(([flagKey, variations]) =>
      [...variations].map(([variationKey, count]) => ({ flagKey, variationKey, count }))
    )
    for (let i = 0; i < entries.length; i += MAX_COUNTS_PER_REPORT) {
      const outcome = await this.post(batch.from, to, entries.slice(i, i + MAX_COUNTS_PER_REPORT), signal)
      if (outcome === "retry") {
        // Keep the unsent part for the next send (with anything counted meanwhile).
        for (const entry of entries.slice(i)) this.restore(batch.from, entry.flagKey, entry.variationKey, entry.count)
        return false
      }
    }
    return true
  }

  private restore(from: number, flagKey: string, variationKey: string, count: number): void {
    const batch = (this.batch ??= { from, counts: new Map() })
    if (from < batch.from) this.batch = { from, counts: batch.counts }
    const flag = batch.counts.get(flagKey) ?? new Map<string, number>()
    flag.set(variationKey, (flag.get(variationKey) ?? 0) + count)
    batch.counts.set(flagKey, flag)
  }

  private async post(
    from: number,
    to: number,
    counts: ReadonlyArray<{ readonly flagKey: string; readonly variationKey: string; readonly count: number }>,
    signal: AbortSignal
  ): Promise<"sent" | "dropped" | "retry"> {
    const { endpoint } = this
    const request = deadline(this.timers, signal, endpoint.requestTimeoutMs)
    const body: Record<string, unknown> = { from: new Date(from).toISOString(), to: new Date(to).toISOString(), counts }
    if (endpoint.environment !== undefined) body.environment = endpoint.environment
    if (endpoint.projectId !== undefined) body.projectId = endpoint.projectId
    try {
      const response = await endpoint.fetch(`${endpoint.url.replace(/\/+$/, "")}/v1/insights`, {
        method: "POST",
        headers: { authorization: authorization(endpoint), "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: request.signal
      })
      if (response.status >= 200 && response.status < 300) {
        await response.body?.cancel()
        return "sent"
      }
      if (response.status >= 400 && response.status < 500) {
        this.host.refused(`the server refused evaluation counts: ${await errorMessage(response)}`)
        return "dropped"
      }
      await response.body?.cancel()
      return "retry"
    } catch {
      // Unreachable or timed out: the counts wait for the next send.
      return "retry"
    } finally {
      request.done()
    }
  }
}

/** Sends every `intervalMs` until `signal` aborts (the client's `close()` sends the last batch). */
export const runInsights = async (reporter: InsightsReporter, timers: Timers, intervalMs: number, signal: AbortSignal): Promise<void> => {
  while (!signal.aborted) {
    await sleep(timers, intervalMs, signal)
    if (signal.aborted) return
    await reporter.send(signal)
  }
}
