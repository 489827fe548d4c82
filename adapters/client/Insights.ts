/**
 * The SDK's evaluation insights: every evaluation it makes is counted in its flag's tally (a small
 * Map the installed flag holds, so a getter pays no lookup by flag key for it),
 * and the counts are sent, batched, to `POST /v1/insights` every interval and once more at
 * `close()`, so the server's per-flag series and stale status include what applications evaluate
 * in process. A batch the server could not take (unreachable, 5xx) is kept for the next send; one
 * it refused (4xx) is dropped, and the refusal reported once.
 */
import type { EvaluationResult } from "./Core.js"
import { authorization, deadline, type Endpoint, errorMessage } from "./Endpoint.js"
import { sleep, type Timers } from "./Timers.js"

/** Most entries per request (the server's limit). */
const MAX_COUNTS_PER_REPORT = 1000

/** At most this many further result objects are scanned per flag (a flag has a handful of outcomes). */
const MAX_SCANNED_RESULTS = 16

/**
 * Evaluations of one flag since the last send. The evaluator answers with frozen result objects
 * precomputed per outcome of the compiled flag (a handful per flag), so a count is a few identity
 * comparisons and an increment: no hashing of a variation key on the evaluation path, where a Map
 * update cost about 10% of a W2 evaluation (bench/client.bench.ts). Any other result is counted
 * by its variation key. Counts are merged by variation key when taken.
 */
export class Tally {
  // The first four results seen, in fields (compared without an array load or bounds check: most
  // flags have at most four outcomes that matter), then any further ones in arrays.
  private r0: EvaluationResult | undefined = undefined
  private r1: EvaluationResult | undefined = undefined
  private r2: EvaluationResult | undefined = undefined
  private r3: EvaluationResult | undefined = undefined
  private c0 = 0
  private c1 = 0
  private c2 = 0
  private c3 = 0
  private more: Array<EvaluationResult> = []
  private moreCounts: Array<number> = []
  private readonly byKey = new Map<string, number>()

  /** One evaluation that answered `result` (no variation served: nothing counted). */
  count(result: EvaluationResult): void {
    if (result === this.r0) this.c0++
    else if (result === this.r1) this.c1++
    else if (result === this.r2) this.c2++
    else if (result === this.r3) this.c3++
    else this.countOther(result)
  }

  private countOther(result: EvaluationResult): void {
    const more = this.more
    for (let i = 0; i < more.length; i++) {
      if (more[i] === result) {
        this.moreCounts[i]!++
        return
      }
    }
    if (result.variationKey === null) return
    // Only the evaluator's shared, frozen results are kept; anything else is counted by its key.
    if (!Object.isFrozen(result)) this.add(result.variationKey, 1)
    else if (this.r0 === undefined) {
      this.r0 = result
      this.c0 = 1
    } else if (this.r1 === undefined) {
      this.r1 = result
      this.c1 = 1
    } else if (this.r2 === undefined) {
      this.r2 = result
      this.c2 = 1
    } else if (this.r3 === undefined) {
      this.r3 = result
      this.c3 = 1
    } else if (more.length < MAX_SCANNED_RESULTS) {
      more.push(result)
      this.moreCounts.push(1)
    } else this.add(result.variationKey, 1)
  }

  /** `n` evaluations of `variationKey` (counts put back after a failed send). */
  add(variationKey: string, n: number): void {
    this.byKey.set(variationKey, (this.byKey.get(variationKey) ?? 0) + n)
  }

  /**
   * The counts by variation key, leaving the tally empty. It also lets go of the results seen,
   * so a tally never holds on to the objects of a configuration replaced since.
   */
  take(): Map<string, number> {
    const taken = new Map(this.byKey)
    const add = (result: EvaluationResult | undefined, n: number) => {
      if (result !== undefined) taken.set(result.variationKey!, (taken.get(result.variationKey!) ?? 0) + n)
    }
    add(this.r0, this.c0)
    add(this.r1, this.c1)
    add(this.r2, this.c2)
    add(this.r3, this.c3)
    this.more.forEach((result, i) => add(result, this.moreCounts[i]!))
    this.r0 = this.r1 = this.r2 = this.r3 = undefined
    this.c0 = this.c1 = this.c2 = this.c3 = 0
    this.more = []
    this.moreCounts = []
    this.byKey.clear()
    return taken
  }
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
      tally = new Tally()
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
      for (const [variationKey, count] of tally.take()) if (count > 0) entries.push({ flagKey, variationKey, count })
    }
    for (let i = 0; i < entries.length; i += MAX_COUNTS_PER_REPORT) {
      const outcome = await this.post(from, to, entries.slice(i, i + MAX_COUNTS_PER_REPORT), signal)
      if (outcome === "retry") {
        // Keep the unsent part for the next send (with anything counted meanwhile), from the start of this batch.
        this.from = Math.min(this.from, from)
        for (const entry of entries.slice(i)) this.tallyFor(entry.flagKey).add(entry.variationKey, entry.count)
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
