/**
 * The stream change source: `GET /v1/stream` (Server-Sent Events in the OFREP 0.3.0 format),
 * read with `fetch` and `SseParser`. Each event says "the configuration is now <etag>"; the
 * client refetches `/v1/config` with `If-None-Match` unless it already holds that ETag.
 *
 *   id: <etag>
 *   event: message
 *   data: {"type":"refetchEvaluation","etag":"<etag>","lastModified":<unix seconds>}
 *
 * It connects with `Last-Event-ID` set to the ETag the client holds (the server then skips the
 * event it would send on connect), reconnects on the backoff schedule after any loss (the count
 * resets after a connection that lasted `resetAfterMs`), treats a stream silent for longer than
 * `idleTimeoutMs` (the server pings every 15 s) as lost, retries rarely against a server
 * without the endpoint (404, 405, 501), where polling does the work, and slowly, on the refusal
 * schedule (Refusal.ts), after a refusal (401, 403, ...).
 */
import { backoffDelay, type BackoffPolicy } from "./Backoff.js"
import { authorization, describeError, type Endpoint, endpointUrl, errorMessage } from "./Endpoint.js"
import { type FlagportServerError, isRefusal, readRefusal } from "./Refusal.js"
import { SseParser } from "./Sse.js"
import { sleep, type Timers } from "./Timers.js"

export interface StreamHost {
  /** The ETag of the configuration the client holds. */
  readonly etag: () => string | undefined
  /** The server announced configuration `etag` (undefined when the event does not say). */
  readonly announced: (etag: string | undefined) => void
  readonly up: () => void
  readonly down: (message: string) => void
  /** The server refused the stream (401, 403, ...): a configuration problem to report. */
  readonly rejected: (refusal: FlagportServerError) => void
}

export interface StreamOptions {
  readonly backoff: BackoffPolicy
  /** The schedule after a refusal (REFUSAL_BACKOFF). */
  readonly refusalBackoff: BackoffPolicy
  readonly idleTimeoutMs: number
  /** The wait before trying again a server that has no stream endpoint. */
  readonly unsupportedRetryMs: number
}

export type StreamEnd =
  | { readonly kind: "lost"; readonly message: string }
  | { readonly kind: "unsupported"; readonly message: string }
  | { readonly kind: "rejected"; readonly message: string; readonly refusal: FlagportServerError }

const UNSUPPORTED = new Set([404, 405, 501])

/** The etag an event announces, undefined when its data does not name one. */
const announcedEtag = (data: string): string | undefined => {
  try {
    const parsed = JSON.parse(data) as { etag?: unknown }
    return typeof parsed?.etag === "string" ? parsed.etag : undefined
  } catch {
    return undefined
  }
}

/** One connection, from request to loss. Resolves (never rejects) with how it ended. */
const connectOnce = async (endpoint: Endpoint, timers: Timers, host: StreamHost, options: StreamOptions, signal: AbortSignal): Promise<StreamEnd> => {
  const controller = new AbortController()
  const abort = () => controller.abort()
  signal.addEventListener("abort", abort, { once: true })
  let idle = false
  let cancelIdle = timers.schedule(endpoint.requestTimeoutMs, () => ((idle = true), abort()))
  const alive = () => {
    cancelIdle()
    cancelIdle = timers.schedule(options.idleTimeoutMs, () => ((idle = true), abort()))
  }
  let connected = false
  try {
    const headers: Record<string, string> = { authorization: authorization(endpoint), accept: "text/event-stream", "cache-control": "no-cache" }
    const etag = host.etag()
    if (etag !== undefined) headers["last-event-id"] = etag
    const response = await endpoint.fetch(endpointUrl(endpoint, "/v1/stream"), { headers, signal: controller.signal })
    if (UNSUPPORTED.has(response.status)) return { kind: "unsupported", message: await errorMessage(response) }
    if (isRefusal(response.status)) {
      const refusal = await readRefusal(response)
      return { kind: "rejected", message: refusal.message, refusal }
    }
    const type = response.headers.get("content-type") ?? ""
    if (response.status !== 200 || response.body === null || !type.startsWith("text/event-stream")) {
      await response.body?.cancel().catch(() => undefined)
      return { kind: "lost", message: `the stream answered ${response.status} ${type}`.trim() }
    }
    connected = true
    alive()
    host.up()
    const parser = new SseParser({
      event: (event) => {
        if (event.event === "message") host.announced(announcedEtag(event.data))
      }
    })
    const decoder = new TextDecoder()
    const reader = response.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return { kind: "lost", message: "the server closed the stream" }
      alive()
      parser.push(decoder.decode(value, { stream: true }))
    }
  } catch (error) {
    return { kind: "lost", message: idle ? `the stream was silent for ${connected ? options.idleTimeoutMs : endpoint.requestTimeoutMs} ms` : describeError(error) }
  } finally {
    cancelIdle()
    signal.removeEventListener("abort", abort)
    controller.abort()
  }
}

/** Keeps a stream open until `signal` aborts. `onRetry` is told each reconnection delay chosen and why. */
export const runStream = async (
  endpoint: Endpoint,
  timers: Timers,
  host: StreamHost,
  options: StreamOptions,
  signal: AbortSignal,
  onRetry?: (delayMs: number, ended: StreamEnd) => void
): Promise<void> => {
  let attempt = 0
  let refusals = 0
  while (!signal.aborted) {
    const started = timers.now()
    let wasUp = false
    const ended = await connectOnce(endpoint, timers, { ...host, up: () => ((wasUp = true), host.up()) }, options, signal)
    if (signal.aborted) return
    if (wasUp) host.down(ended.message)
    if (ended.kind === "rejected") host.rejected(ended.refusal)
    if (wasUp) refusals = 0
    if (wasUp && timers.now() - started >= options.backoff.resetAfterMs) attempt = 0
    const delay =
      ended.kind === "unsupported"
        ? options.unsupportedRetryMs
        : ended.kind === "rejected"
          ? backoffDelay(options.refusalBackoff, refusals++, timers.random())
          : backoffDelay(options.backoff, attempt++, timers.random())
    onRetry?.(delay, ended)
    await sleep(timers, delay, signal)
  }
}
