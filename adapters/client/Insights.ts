/**
 * The SDK's evaluation insights: every evaluation it makes is counted in its flag's tally (a small
 * Map the installed flag holds, so a getter pays no lookup by flag key for it),
 * and the counts are sent, batched, to `POST /v1/insights` every interval and once more at
 * `close()`, so the server's per-flag series and stale status include what applications evaluate
 * in process. A batch the server could not take (unreachable, 5xx) is kept for the next send; one
 * it refused (4xx) is dropped, and the refusal reported once.
 */
import { authorization, deadline, type Endpoint, errorMessage } from "./Endpoint.js"
import { sleep, type Timers } from "./Timers.js"

/** Most entries per request (the server's limit). */
const MAX_COUNTS_PER_REPORT = 1000

/** Evaluations of one flag per variation key since the last send. */
export type Tally = Map<string, number>

/** Counts one evaluation that served `variationKey` (null: nothing was served, nothing counted). */
export const countIn = (tally: Tally | null, variationKey: string | null): void => {
  if (tally !== null && variationKey !== null) tally.set(variationKey, (tally.get(variationKey) ?? 0) + 1)
}

export interface InsightsHost {
  /** A refusal to report (once per distinct message, by the client's `error` event). */
  readonly refused: (message: string) => void
}

export class InsightsReporter {
  /** One tally per flag key, kept across configurations (a new configuration's flags reuse them). */
  private readonly tallies = new Map<string, Tally>()
  /** Since when the tallies count: the last send (or the start). */
  private from: number

  constructor(
    private readonly endpoint: Endpoint,
    private readonly timers: Timers,
    private readonly host: InsightsHost
  ) {
    this.from = timers.now()
  }

  /** The tally of `flagKey`, for the installed flag to count into. */
  tallyFor(flagKey: string): Tally {
    let tally = this.tallies.get(flagKey)
    if (tally === undefined) {
      tally = new Map()
      this.tallies.set(flagKey, tally)
    }
    return tally
  }

  /** Sends what was counted; true when there was nothing to send or the server took it all. */
  async send(signal: AbortSignal): Promise<boolean> {
    const from = this.from
    const to = this.timers.now()
    this.from = to
    // Taken and zeroed in one synchronous pass: what is counted from here on waits for the next send.
    const entries: Array<{ readonly flagKey: string; readonly variationKey: string; readonly count: number }> = []
    for (const [flagKey, tally] of this.tallies) {
      for (const [variationKey, count] of tally) if (count > 0) entries.push({ flagKey, variationKey, count })
      tally.clear()
    }
    for (let i = 0; i < entries.length; i += MAX_COUNTS_PER_REPORT) {
      const outcome = await this.post(from, to, entries.slice(i, i + MAX_COUNTS_PER_REPORT), signal)
      if (outcome === "retry") {
        // Keep the unsent part for the next send (with anything counted meanwhile), from the start of this batch.
        this.from = Math.min(this.from, from)
        for (const entry of entries.slice(i)) {
          const tally = this.tallyFor(entry.flagKey)
          tally.set(entry.variationKey, (tally.get(entry.variationKey) ?? 0) + entry.count)
        }
        return false
      }
    }
    return true
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
