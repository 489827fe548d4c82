import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
/** One POST of a webhook delivery: the body is sent byte for byte as signed. */
export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * What happened to one POST. Exactly one of `statusCode` and `error` tells the outcome:
 * a status when the destination answered (any status, 2xx or not), an error when it did not
 * (timeout, connection refused, DNS failure, a refused private address, ...).
 */
export interface WebhookResponse {
  readonly statusCode: number | null
  readonly durationMs: number
  /** Why no answer came, in words of our own (never text the destination chose). */
  readonly error: string | null
}

export interface WebhookTransportShape {
  /**
   * POSTs the request and reports the outcome. Never fails: every problem becomes `error`.
   * The status line must arrive within the transport's timeout (10 s in production), or the
   * attempt counts as a timeout; the outcome is decided on it, and the connection is closed
   * without reading the body.
   */
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
}

/** The outbound side of webhooks (adapters/webhook-http in production, fakes in tests). */
export class WebhookTransport extends Context.Tag("@flagport/ports/WebhookTransport")<
  WebhookTransport,
  WebhookTransportShape
>() {}
