import { Context, type Effect } from "effect"

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
  readonly error: string | null
}

export interface WebhookTransportShape {
  /**
   * POSTs the request and reports the outcome. Never fails: every problem becomes `error`.
   * An answer must arrive within the transport's timeout (10 s in production), or the attempt
   * counts as a timeout. The response body is read and discarded.
   */
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
}

/** The outbound side of webhooks (adapters/webhook-http in production, fakes in tests). */
export class WebhookTransport extends Context.Tag("@flagport/ports/WebhookTransport")<
  WebhookTransport,
  WebhookTransportShape
>() {}
