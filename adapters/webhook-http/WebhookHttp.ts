import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Tracer from "effect/Tracer"
import * as Http from "node:http"
import * as Https from "node:https"
import type { LookupFunction } from "node:net"
import { describeRefusal, isIpAddress, refusalOf } from "../../src/domain/webhooks/DestinationAddress.js"
import { hostOf } from "../../src/domain/webhooks/WebhookUrl.js"
import { WebhookTransport, type WebhookRequest, type WebhookResponse } from "../../src/ports/WebhookTransport.js"
import { AddressRefused, guardedLookup } from "./GuardedLookup.js"

/**
 * The production WebhookTransport: one POST over node:http / node:https per attempt, on its own
 * connection. Redirects are not followed (a 3xx is a failed attempt, as Standard Webhooks senders do).
 *
 * The outcome is decided by the status line alone; the body is never read and the connection is
 * closed once the status is in. So a receiver that streams a huge or endless body costs nothing,
 * and nothing it writes reaches the delivery log: an attempt records the status, or why no answer
 * came in words of our own (`failureReason`), never text the destination chose (an internal
 * service's error page, a certificate's names in a TLS error).
 *
 * Destinations are judged by domain/webhooks/DestinationAddress.ts: an address in the URL before
 * connecting, every address DNS answers in the socket's own lookup (GuardedLookup.ts).
 *
 * Each send is a client span `WebhookHttp.send` (the destination's host and the answer's status).
 * With tracing on (adapters/telemetry/Tracing.ts), the POST carries that span as a W3C `traceparent`
 * header (outside the signed content), so a receiver that traces joins the trace; with tracing off
 * (Effect's own tracer, whose spans go nowhere) no header is sent.
 */

export interface Options {
  /** The status line must arrive within this time (contract: 10 s). */
  readonly timeout?: Duration.DurationInput
  /**
   * Refuse destinations in private and loopback ranges too (link-local and metadata addresses are
   * refused whatever this says), checked after DNS resolution.
   */
  readonly blockPrivate?: boolean
}

export const DEFAULT_TIMEOUT = Duration.seconds(10)

/** Connection errors in words of our own, by node's error code. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection reset",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found (DNS lookup failed)",
  EAI_FAIL: "host not found (DNS lookup failed)",
  EAI_NODATA: "host not found",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS: the certificate does not name the host",
  CERT_HAS_EXPIRED: "TLS: the certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS: the certificate is not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS: the certificate is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS: the certificate is not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS: the certificate is not trusted"
}

/**
 * Why an attempt got no answer, for the delivery log: a reason from our own vocabulary with node's
 * error code, never the error's message (which can quote what the destination sent).
 */
export const failureReason = (error: unknown): string => {
  if (error instanceof AddressRefused) return error.message
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined
  if (typeof code === "string" && /^[A-Z0-9_]{1,64}$/.test(code)) {
    const reason = REASONS[code] ?? (code.startsWith("ERR_TLS") || code.includes("CERT") ? "TLS handshake failed" : "connection failed")
    return `${reason} (${code})`
  }
  if (error instanceof Error && error.message === "socket hang up") return "connection closed before an answer"
  return "connection failed"
}

/** An answer's status line, with the response stream still unread. */
interface Answer {
  readonly request: Http.ClientRequest
  readonly response: Http.IncomingMessage
}

/**
 * Sends the POST and waits for the status line. Interrupting it (the timeout) destroys the request.
 * Error listeners stay attached for the request's whole life: a late socket error must not become
 * an uncaught exception.
 */
const exchange = (request: WebhookRequest, lookup: LookupFunction) =>
  Effect.async<Answer, string>((resume) => {
    const url = new URL(request.url)
    const body = Buffer.from(request.body, "utf8")
    const outgoing = (url.protocol === "https:" ? Https : Http).request(url, {
      method: "POST",
      headers: { ...request.headers, "content-type": "application/json", "content-length": String(body.length) },
      agent: false,
      lookup
    })
    let settled = false
    outgoing.on("error", (error) => {
      if (settled) return
      settled = true
      resume(Effect.fail(failureReason(error)))
    })
    outgoing.on("response", (response) => {
      response.on("error", () => {}) // reported by the prefix reader, or irrelevant after the status
      if (settled) return
      settled = true
      resume(Effect.succeed({ request: outgoing, response }))
    })
    outgoing.end(body)
    return Effect.sync(() => outgoing.destroy())
  })

/** Effect's built-in tracer: its spans are not exported, so they are not worth propagating. */
const builtInTracer = Effect.runSync(Effect.tracer)
const NO_HEADERS: Readonly<Record<string, string>> = {}

/** The W3C `traceparent` of the current span when an exporting tracer is in place, else nothing. */
export const traceHeaders: Effect.Effect<Readonly<Record<string, string>>> = Effect.tracerWith((tracer) =>
  tracer === builtInTracer
    ? Effect.succeed(NO_HEADERS)
    : Effect.map(Effect.option(Effect.currentSpan), (span) => Option.match(span, { onNone: () => NO_HEADERS, onSome: traceparentOf }))
)

const traceparentOf = (span: Tracer.Span): Record<string, string> => ({ traceparent: `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}` })

/** A transport with the given timeout and address guard. */
export const make = (options: Options = {}) => {
  const timeout = Duration.decode(options.timeout ?? DEFAULT_TIMEOUT)
  const timeoutMs = Duration.toMillis(timeout)
  const blockPrivate = options.blockPrivate === true
  const lookup = guardedLookup(blockPrivate)

  // The status line decides; the body is never read: the connection is closed at once.
  const post = (request: WebhookRequest) =>
    exchange(request, lookup).pipe(
      Effect.timeoutFail({ duration: timeout, onTimeout: () => `timed out after ${timeoutMs} ms` }),
      Effect.map(({ request: outgoing, response }) => {
        outgoing.destroy()
        return response.statusCode ?? 0
      })
    )

  const send = (request: WebhookRequest): Effect.Effect<WebhookResponse> =>
    Effect.flatMap(traceHeaders, (trace) => sendWith(trace === NO_HEADERS ? request : { ...request, headers: { ...request.headers, ...trace } })).pipe(
      Effect.tap((response) =>
        response.statusCode === null
          ? Effect.annotateCurrentSpan("error.type", "no answer")
          : Effect.annotateCurrentSpan("http.response.status_code", response.statusCode)
      ),
      Effect.withSpan("WebhookHttp.send", {
        kind: "client",
        attributes: { "http.request.method": "POST", "server.address": hostOf(request.url) },
        captureStackTrace: false
      })
    )

  const sendWith = (request: WebhookRequest): Effect.Effect<WebhookResponse> =>
    Effect.suspend(() => {
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      // IP literals never reach the resolver, so they are judged here; names in guardedLookup.
      const host = hostOf(request.url)
      const refusal = isIpAddress(host) ? refusalOf(host, blockPrivate) : undefined
      if (refusal !== undefined) {
        return Effect.succeed<WebhookResponse>({ statusCode: null, durationMs: 0, error: `destination refused: ${describeRefusal(refusal)}` })
      }
      return post(request).pipe(
        Effect.match({
          onSuccess: (statusCode): WebhookResponse => ({ statusCode, durationMs: elapsed(), error: null }),
          onFailure: (error): WebhookResponse => ({ statusCode: null, durationMs: elapsed(), error })
        }),
        Effect.catchAllDefect((defect) => Effect.succeed<WebhookResponse>({ statusCode: null, durationMs: elapsed(), error: failureReason(defect) }))
      )
    })

  return WebhookTransport.of({ send })
}

/** The transport (address guard installed when `blockPrivate`). */
export const layer = (options: Options = {}): Layer.Layer<WebhookTransport> => Layer.succeed(WebhookTransport, make(options))

/** Settings from the environment: FLAGPORT_WEBHOOK_BLOCK_PRIVATE=true refuses private destinations too. */
export const config = Config.all({
  blockPrivate: Config.boolean("FLAGPORT_WEBHOOK_BLOCK_PRIVATE").pipe(Config.withDefault(false))
})

/** `layer` configured from the environment (see `config`); fails at startup on a malformed value. */
export const layerConfig: Layer.Layer<WebhookTransport, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(config, (settings) => layer(settings))
)
