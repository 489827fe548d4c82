/**
 * `createClient`'s options, their defaults, and the check that turns a mistake into a clear
 * error at start-up (evaluation itself never throws).
 */
import { type BackoffPolicy, DEFAULT_BACKOFF } from "./Backoff.js"
import type { ConfigSnapshot } from "./Core.js"
import type { DeliverySettings } from "./Delivery.js"
import type { Endpoint } from "./Endpoint.js"
import { realTimers, type Timers } from "./Timers.js"
import type { EvaluationEvent } from "./Types.js"

export interface ClientOptions {
  /** The Flagport server's base URL, mount prefix included, e.g. `https://flags.example.com`. */
  readonly url: string
  /** A server or client API key. */
  readonly key: string
  /** The environment to serve; optional with an environment-scoped key. */
  readonly environment?: string
  /** The project, for a key that is not scoped to one (a global server key). */
  readonly projectId?: string
  /** Keep fresh through `GET /v1/stream` (default true); polling covers any time the stream is down. */
  readonly stream?: boolean
  /** How often to poll `/v1/config` when no stream is up (default 30 000 ms). */
  readonly pollIntervalMs?: number
  /** How long `createClient` waits for the first configuration before it resolves anyway (default 5 000 ms). */
  readonly startTimeoutMs?: number
  /** The deadline of one request to the server (default 10 000 ms). */
  readonly requestTimeoutMs?: number
  /** A stream silent this long is treated as lost (default 45 000 ms; the server pings every 15 s). */
  readonly streamIdleTimeoutMs?: number
  /** Reconnection delays (defaults: 1 s doubling to 30 s, with jitter; reset after 60 s connected). */
  readonly backoff?: Partial<BackoffPolicy>
  /**
   * A configuration to serve until the server answers: a `GET /v1/config` body, or the path of a
   * file holding one (read only on runtimes with a file system: Node, Bun, Deno).
   */
  readonly bootstrap?: ConfigSnapshot | string
  /**
   * Send evaluation counts to the server (`POST /v1/insights`) for its per-flag insights and stale
   * flags (default true): batched every `insightsIntervalMs` and at `close()`.
   */
  readonly sendInsights?: boolean
  /** How often counts are sent (default 60 000 ms). */
  readonly insightsIntervalMs?: number
  /**
   * Called after every evaluation by a getter or `detail` (not `all`), synchronously, with the flag,
   * the variation served, the reason, the context's key and the value: exposure events for an
   * analytics pipeline or a log. Without it the getters allocate nothing for it. It should return
   * quickly (queue, do not send); what it throws is caught and reported once as an `error` event,
   * never reaching the caller.
   */
  readonly onEvaluation?: (event: EvaluationEvent) => void
  /**
   * Send the exposures of local evaluations to the server (`POST /v1/exposures`, default true):
   * only for rules a running experiment measures, once per unit, flag and variation per flush.
   */
  readonly exposures?: boolean
  /** How often queued exposures and metric events (`track`) are sent (default 10 000 ms; sooner when a batch of 1,000 is full, and at `close()`). */
  readonly flushIntervalMs?: number
  /** Most exposures, and most metric events, held while waiting to be sent (default 10 000 each); more are dropped and counted. */
  readonly maxQueuedItems?: number
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof globalThis.fetch
  /** Time source (default: real timers). Tests drive the client with a fake one. */
  readonly timers?: Timers
}

export interface Settings {
  readonly endpoint: Endpoint
  readonly stream: boolean
  readonly pollIntervalMs: number
  readonly startTimeoutMs: number
  readonly streamIdleTimeoutMs: number
  readonly backoff: BackoffPolicy
  readonly timers: Timers
  /** Milliseconds between two sends of evaluation counts; null: counts are not sent. */
  readonly insightsIntervalMs: number | null
  /** The evaluation hook; null when there is none. */
  readonly onEvaluation: ((event: EvaluationEvent) => void) | null
  readonly delivery: DeliverySettings
}

/** Five minutes between attempts at a stream endpoint the server does not have. */
export const UNSUPPORTED_STREAM_RETRY_MS = 300_000

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new TypeError(`flagport: ${name} must be a positive number of milliseconds`)
  return value
}

const wholeAtLeastOne = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw new TypeError(`flagport: ${name} must be a whole number of at least 1`)
  return value
}

const optionalString = (name: string, value: unknown): string | undefined => {
  if (value === undefined) return undefined
  if (typeof value !== "string" || value.length === 0) throw new TypeError(`flagport: ${name} must be a non-empty string`)
  return value
}

export const settingsOf = (options: ClientOptions): Settings => {
  if (typeof options !== "object" || options === null) throw new TypeError("flagport: createClient needs options { url, key }")
  if (typeof options.url !== "string" || !/^https?:\/\//.test(options.url)) throw new TypeError("flagport: url must be an http(s) URL")
  if (typeof options.key !== "string" || options.key.length === 0) throw new TypeError("flagport: key must be a non-empty API key")
  const fetchFn = options.fetch ?? globalThis.fetch
  if (typeof fetchFn !== "function") throw new TypeError("flagport: no fetch on this runtime; pass options.fetch")
  if (options.onEvaluation !== undefined && typeof options.onEvaluation !== "function") throw new TypeError("flagport: onEvaluation must be a function")
  if (options.exposures !== undefined && typeof options.exposures !== "boolean") throw new TypeError("flagport: exposures must be true or false")
  const backoff: BackoffPolicy = {
    initialMs: positive("backoff.initialMs", options.backoff?.initialMs, DEFAULT_BACKOFF.initialMs),
    maxMs: positive("backoff.maxMs", options.backoff?.maxMs, DEFAULT_BACKOFF.maxMs),
    resetAfterMs: positive("backoff.resetAfterMs", options.backoff?.resetAfterMs, DEFAULT_BACKOFF.resetAfterMs)
  }
  return {
    endpoint: {
      url: options.url,
      key: options.key,
      environment: optionalString("environment", options.environment),
      projectId: optionalString("projectId", options.projectId),
      fetch: options.fetch === undefined ? (input, init) => globalThis.fetch(input, init) : fetchFn,
      requestTimeoutMs: positive("requestTimeoutMs", options.requestTimeoutMs, 10_000)
    },
    stream: options.stream ?? true,
    pollIntervalMs: positive("pollIntervalMs", options.pollIntervalMs, 30_000),
    startTimeoutMs: positive("startTimeoutMs", options.startTimeoutMs, 5_000),
    streamIdleTimeoutMs: positive("streamIdleTimeoutMs", options.streamIdleTimeoutMs, 45_000),
    backoff,
    timers: options.timers ?? realTimers,
    insightsIntervalMs: options.sendInsights === false ? null : positive("insightsIntervalMs", options.insightsIntervalMs, 60_000),
    onEvaluation: options.onEvaluation ?? null,
    delivery: {
      exposures: options.exposures !== false,
      flushIntervalMs: positive("flushIntervalMs", options.flushIntervalMs, 10_000),
      capacity: wholeAtLeastOne("maxQueuedItems", options.maxQueuedItems, 10_000)
    }
  }
}
