/**
 * `createClient`: Flagport's server-side SDK. It downloads the environment's configuration
 * (`GET /v1/config`) and evaluates every call in process with the same `Evaluate` the server
 * uses, so an evaluation is synchronous, never throws and never touches the network.
 *
 * Freshness: a stream (`/v1/stream`, StreamSource.ts) says when the configuration changed and
 * the client refetches it with `If-None-Match`; polling (Polling.ts) covers any time the stream
 * is off, unavailable or down. Resilience: the last good configuration is kept whatever the
 * server does; a configuration that fails the check (ConfigCheck.ts) never replaces it; a
 * bootstrap configuration serves until the server answers; before any configuration, every
 * getter returns the caller's fallback.
 */
import { loadBootstrap } from "./Bootstrap.js"
import { changedKeys } from "./ChangedKeys.js"
import { checkConfig } from "./ConfigCheck.js"
import { fetchConfig } from "./ConfigFetch.js"
import { type ConfigSnapshot, evaluateAll, evaluateCompiled, type EvaluationResult, type KeyListSource, type RegexEngine } from "./Core.js"
import { Emitter } from "./Emitter.js"
import { Standing } from "./Standing.js"
import { errorDetail, notFound, toDetail, typeOfFallback } from "./Evaluation.js"
import { InsightsReporter, runInsights } from "./Insights.js"
import { type Installed, install } from "./Installed.js"
import { forFlag, toLocalContext } from "./JsonContext.js"
import { type ClientOptions, type Settings, settingsOf, UNSUPPORTED_STREAM_RETRY_MS } from "./Options.js"
import { regexEngineFor } from "./RegexLoading.js"
import { type Polling, type RefreshResult, startPolling } from "./Polling.js"
import { type FlagportServerError, REFUSAL_BACKOFF, refusalNotice } from "./Refusal.js"
import { runStream } from "./StreamSource.js"
import { sleep } from "./Timers.js"
import { Delivery, runDelivery } from "./Delivery.js"
import { KeyLists } from "./KeyLists.js"
import type { Client } from "./ClientApi.js"
import type { ClientEventName, ClientEvents, ClientStatus, DeliveryCounts, Detail, EvaluationEvent, FlagContext, FlagType, FlagTypes, Json, UntypedFlags } from "./Types.js"

export type { Client } from "./ClientApi.js"

class FlagportClientImpl implements Client {
  private installed: Installed | null = null
  private readonly events = new Emitter()
  private readonly standing = new Standing(this.events, () => this.installed !== null, () => this.polling?.wake())
  private readonly stop = new AbortController()
  private closed = false
  private inFlight: Promise<RefreshResult> | undefined
  private again = false
  private readonly loops: Array<Promise<void>> = []
  private polling: Polling | undefined
  private fromServer!: () => void
  /** Settles once a configuration from the server is installed. */
  readonly serverConfig = new Promise<void>((resolve) => (this.fromServer = resolve))
  private refusedOnce!: (refusal: FlagportServerError) => void
  /** Settles with the first refusal of `/v1/config`: `createClient` stops waiting then. */
  readonly firstRefusal = new Promise<FlagportServerError>((resolve) => (this.refusedOnce = resolve))

  /** Counts evaluations for the server's insights (null when `sendInsights: false`). */
  private readonly insights: InsightsReporter | null
  /** `onEvaluation`, or null: the getters test it once and otherwise take the path without it. */
  private readonly hook: ((event: EvaluationEvent) => void) | null
  private hookFailed = false
  /** Exposures and metric events, queued and sent (Delivery.ts). */
  private readonly outbound: Delivery
  /** The segments' key lists, downloaded apart from the configuration (KeyLists.ts). */
  private readonly keyLists: KeyLists

  constructor(private readonly settings: Settings) {
    this.hook = settings.onEvaluation
    this.keyLists = new KeyLists(settings.endpoint, settings.timers, this.stop.signal)
    this.outbound = new Delivery(settings.delivery, settings.endpoint, settings.timers, (message) => this.standing.report(message))
    this.insights = settings.insightsIntervalMs === null
      ? null
      : new InsightsReporter(settings.endpoint, settings.timers, { refused: (message) => this.standing.report(message) })
  }

  get status(): ClientStatus {
    if (this.closed) return "closed"
    if (this.installed === null) return "starting"
    return this.standing.stale ? "stale" : "ready"
  }

  get etag(): string | undefined {
    return this.installed?.etag
  }

  get refusal(): FlagportServerError | undefined {
    return this.standing.refusal
  }

  /** The typed getters' shared path: one lookup, the flag's own attributes checked, no allocation. */
  private value(flagKey: string, context: FlagContext, type: FlagType): unknown {
    const installed = this.installed
    if (installed === null) return undefined
    const entry = installed.flags.get(flagKey)
    if (entry === undefined || entry.type !== type) return undefined
    const local = forFlag(context, entry.plain)
    const result = evaluateCompiled(entry.compiled, local)
    entry.tally?.count(result)
    if (entry.measured !== null) this.outbound.expose(entry.measured, result, local)
    return result.reason.kind === "ERROR" ? undefined : result.value
  }

  boolean(flagKey: string, context: FlagContext, fallback: boolean): boolean {
    if (this.hook !== null) return this.detail(flagKey, context, fallback, "boolean").value
    const value = this.value(flagKey, context, "boolean")
    return typeof value === "boolean" ? value : fallback
  }

  string(flagKey: string, context: FlagContext, fallback: string): string {
    if (this.hook !== null) return this.detail(flagKey, context, fallback, "string").value
    const value = this.value(flagKey, context, "string")
    return typeof value === "string" ? value : fallback
  }

  number(flagKey: string, context: FlagContext, fallback: number): number {
    if (this.hook !== null) return this.detail(flagKey, context, fallback, "number").value
    const value = this.value(flagKey, context, "number")
    return typeof value === "number" ? value : fallback
  }

  json<T extends Json = Json>(flagKey: string, context: FlagContext, fallback: T): T | Json {
    return this.detail<T | Json>(flagKey, context, fallback, "json").value
  }

  detail<T>(flagKey: string, context: FlagContext, fallback: T, type: FlagType = typeOfFallback(fallback)): Detail<T> {
    const detail = this.evaluate(flagKey, context, fallback, type)
    if (this.hook !== null) this.expose(detail, context)
    return detail
  }

  /** Tells the hook; what it throws stays here (evaluation never throws), reported once as an `error` event. */
  private expose(detail: Detail<unknown>, context: FlagContext): void {
    try {
      this.hook!({ ...detail, contextKey: typeof context?.key === "string" ? context.key : undefined })
    } catch (error) {
      if (this.hookFailed) return
      this.hookFailed = true
      this.events.emit("error", `onEvaluation threw (reported once): ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private evaluate<T>(flagKey: string, context: FlagContext, fallback: T, type: FlagType): Detail<T> {
    const installed = this.installed
    if (installed === null) return errorDetail(flagKey, fallback, "PROVIDER_NOT_READY", "no configuration yet: the server has not answered")
    try {
      const entry = installed.flags.get(flagKey)
      if (entry === undefined) return notFound(flagKey, fallback)
      const local = forFlag(context, entry.plain)
      const result = evaluateCompiled(entry.compiled, local)
      entry.tally?.count(result)
      // An exposure only when the caller got the variation (not a fallback for another type).
      if (entry.measured !== null && entry.type === type) this.outbound.expose(entry.measured, result, local)
      return toDetail(entry, flagKey, type, fallback, result)
    } catch (error) {
      // Only hostile input (a throwing getter on a flag key) gets here; evaluation stays total.
      return errorDetail(flagKey, fallback, "GENERAL", String(error))
    }
  }

  all(context: FlagContext): Record<string, EvaluationResult> {
    const installed = this.installed
    if (installed === null) return {}
    const results = evaluateAll(installed.compiled, toLocalContext(context))
    if (this.insights !== null) for (const flagKey in results) installed.flags.get(flagKey)?.tally?.count(results[flagKey]!)
    return results
  }

  track(event: string, unit: string, value?: number): void {
    this.outbound.track(event, unit, value)
  }

  get delivery(): { readonly exposures: DeliveryCounts; readonly events: DeliveryCounts } {
    return this.outbound.counts
  }

  flush(): Promise<boolean> {
    return this.outbound.flush()
  }

  on<E extends ClientEventName>(event: E, listener: ClientEvents[E]): () => void {
    return this.standing.subscribe(event, listener)
  }

  off<E extends ClientEventName>(event: E, listener: ClientEvents[E]): void {
    this.events.off(event, listener)
  }

  /** Installs a checked configuration, its `matches` engine loaded, and tells the listeners what changed. */
  private apply(snapshot: ConfigSnapshot, etag: string | undefined, regex: RegexEngine, keyLists?: KeyListSource): void {
    const before = this.installed
    const tallyFor = this.insights === null ? null : (flagKey: string) => this.insights!.tallyFor(flagKey)
    this.installed = install(snapshot, etag, regex, tallyFor, this.settings.delivery.exposures, keyLists)
    if (before === null) {
      this.events.emit("ready")
      return
    }
    const keys = changedKeys(before.snapshot, snapshot)
    if (keys.length > 0) this.events.emit("change", keys)
  }

  async bootstrap(snapshot: ConfigSnapshot): Promise<void> {
    let regex: RegexEngine
    try {
      regex = await regexEngineFor(snapshot)
    } catch (error) {
      throw new Error(`flagport: the bootstrap configuration cannot be used: ${error instanceof Error ? error.message : String(error)}`)
    }
    this.apply(snapshot, undefined, regex)
  }

  /** The server refused the key, project or environment (the configuration or the stream): one message for both, so told once. */
  private refused(refusal: FlagportServerError): void {
    this.standing.report(refusalNotice(refusal, this.installed === null ? "fallbacks" : "configuration"), refusal)
  }

  private async refreshOnce(): Promise<RefreshResult> {
    const outcome = await fetchConfig(this.settings.endpoint, this.settings.timers, this.installed?.etag, this.stop.signal)
    if (this.closed) return "failed"
    switch (outcome.kind) {
      case "not-modified":
        this.standing.reached()
        return "answered"
      case "modified": {
        const checked = checkConfig(outcome.body)
        if (!checked.ok) {
          this.standing.report(`refused a configuration from the server, kept the previous one: ${checked.problem}`)
          return "failed"
        }
        // The engine of `matches` first (loaded on demand): a configuration is installed only ready to evaluate.
        let regex: RegexEngine
        try {
          regex = await regexEngineFor(checked.snapshot)
        } catch (error) {
          this.standing.report(`cannot use the configuration from the server, kept the previous one: ${error instanceof Error ? error.message : String(error)}`)
          return "failed"
        }
        // Its segments' key lists next (a change of a few keys is a few bytes): installed only with them.
        const lists = KeyLists.names(checked.snapshot) ? await this.keyLists.prepare(checked.snapshot) : undefined
        if (this.closed) return "failed"
        const missing = lists === undefined || lists.missing.length === 0 ? undefined : `key lists not loaded: ${lists.missing.join("; ")}`
        // Without them a previous configuration keeps serving (never a segment with a list taken
        // as empty); `lost` makes polling retry on its backoff schedule, stream or not.
        if (missing !== undefined && this.installed !== null) {
          this.standing.lost(`kept the previous configuration: ${missing}`)
          return "failed"
        }
        // Reached first: a client that never had a configuration announces `ready`, not `recovered`.
        this.standing.reached()
        // With none before, the flags using a missing list answer the fallback (PROVIDER_NOT_READY)
        // until it loads; no ETag, so the next refetch is answered whole and tries the lists again.
        this.apply(checked.snapshot, missing === undefined ? outcome.etag : undefined, regex, lists?.source)
        if (missing !== undefined) {
          this.standing.lost(`flags using these segments serve their fallback: ${missing}`)
          return "failed"
        }
        this.fromServer()
        return "answered"
      }
      case "malformed":
        this.standing.report(`refused a configuration from the server, kept the previous one: ${outcome.message}`)
        return "failed"
      case "refused":
        this.refused(outcome.refusal)
        this.refusedOnce(outcome.refusal)
        return "refused"
      case "unreachable":
        this.standing.lost(outcome.message)
        return "failed"
    }
  }

  refresh(): Promise<boolean> {
    return this.fetchNow().then((result) => result === "answered")
  }

  /** Refetches, one request at a time. */
  private fetchNow(): Promise<RefreshResult> {
    if (this.closed) return Promise.resolve("failed")
    if (this.inFlight !== undefined) {
      // A change may have landed after the running request was answered: fetch once more after it.
      this.again = true
      return this.inFlight
    }
    const run = async (): Promise<RefreshResult> => {
      let result: RefreshResult
      do {
        this.again = false
        result = await this.refreshOnce()
      } while (this.again && !this.closed)
      return result
    }
    const inFlight = run().finally(() => (this.inFlight = undefined))
    this.inFlight = inFlight
    return inFlight
  }

  /** Starts the change sources; resolves with the first refresh. */
  start(): Promise<RefreshResult> {
    const { settings } = this
    const first = this.fetchNow()
    this.polling = startPolling(
      // Polling rests while a stream is up, unless a refetch failed meanwhile: then it retries on
      // the backoff schedule until the server answers (`lost` wakes it).
      { refresh: () => this.fetchNow(), paused: () => this.standing.streamUp && !this.standing.stale },
      settings.timers,
      settings.pollIntervalMs,
      settings.backoff,
      REFUSAL_BACKOFF,
      first,
      this.stop.signal
    )
    this.loops.push(this.polling.done)
    if (this.insights !== null && settings.insightsIntervalMs !== null) {
      this.loops.push(runInsights(this.insights, settings.timers, settings.insightsIntervalMs, this.stop.signal))
    }
    this.loops.push(runDelivery(this.outbound, settings.timers, settings.delivery.flushIntervalMs, this.stop.signal))
    if (settings.stream) {
      this.loops.push(
        runStream(
          settings.endpoint,
          settings.timers,
          {
            etag: () => this.installed?.etag,
            announced: (etag) => {
              if (etag === undefined || etag !== this.installed?.etag) void this.refresh()
            },
            up: () => this.standing.streamReached(),
            down: () => {
              this.standing.streamUp = false
              void this.refresh() // the stream may have missed a change; this also tells whether the server is gone
            },
            rejected: (refusal) => this.refused(refusal)
          },
          {
            backoff: settings.backoff,
            refusalBackoff: REFUSAL_BACKOFF,
            idleTimeoutMs: settings.streamIdleTimeoutMs,
            unsupportedRetryMs: UNSUPPORTED_STREAM_RETRY_MS
          },
          this.stop.signal
        )
      )
    }
    return first
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.stop.abort()
    await Promise.allSettled([...this.loops, this.inFlight])
    // The last counts, on a fresh signal (the client's own is aborted); bounded by the request timeout.
    await Promise.all([this.insights?.send(new AbortController().signal), this.outbound.close()])
    this.events.clear()
  }
}

/**
 * Starts a client. Resolves once the server's configuration is installed, or after
 * `startTimeoutMs` (the client then serves fallbacks, or the bootstrap configuration, and keeps
 * trying), or, with a bootstrap configuration, as soon as the first attempt to reach the server
 * failed. Rejects for invalid options, an unusable bootstrap, and, without a bootstrap, as soon as
 * the server refuses the key, project or environment (a `FlagportServerError` with the server's
 * status, code and message; the client is closed). With a bootstrap a refusal does not reject:
 * the client serves the bootstrap and tells the refusal to its `error` listeners.
 */
export const createClient = async <F extends FlagTypes<F> = UntypedFlags>(options: ClientOptions): Promise<Client<F>> => {
  const settings = settingsOf(options)
  const client = new FlagportClientImpl(settings)
  const bootstrapped = options.bootstrap !== undefined
  if (options.bootstrap !== undefined) await client.bootstrap(await loadBootstrap(options.bootstrap))
  const first = client.start()
  const waiting = new AbortController()
  const waits: Array<Promise<FlagportServerError | undefined>> = [
    client.serverConfig.then(() => undefined),
    client.firstRefusal,
    sleep(settings.timers, settings.startTimeoutMs, waiting.signal).then(() => undefined)
  ]
  if (bootstrapped) waits.push(first.then(() => undefined))
  const refusal = await Promise.race(waits)
  waiting.abort()
  if (refusal !== undefined && !bootstrapped) {
    await client.close()
    throw refusal
  }
  return client
}
