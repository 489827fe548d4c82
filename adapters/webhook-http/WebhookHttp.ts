import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { Config, type ConfigError, Duration, Effect, Layer } from "effect"
import { isIP } from "node:net"
import { hostOf, isPrivateAddress } from "../../src/domain/webhooks/WebhookUrl.js"
import { WebhookTransport, type WebhookRequest, type WebhookResponse } from "../../src/ports/WebhookTransport.js"
import { guardedLookup } from "./GuardedLookup.js"

/**
 * The production WebhookTransport: a POST over @effect/platform's HttpClient (node:http agents).
 * Redirects are not followed (a 3xx is a failed attempt, as Standard Webhooks senders do).
 */

export interface Options {
  /** An answer must arrive within this time (contract: 10 s). */
  readonly timeout?: Duration.DurationInput
  /** Refuse destinations in private, loopback and link-local ranges, checked after DNS resolution. */
  readonly blockPrivate?: boolean
}

export const DEFAULT_TIMEOUT = Duration.seconds(10)

const describe = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const cause = (error as { cause?: unknown }).cause
    if (cause instanceof Error) {
      const code = (cause as { code?: string }).code
      return code !== undefined && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message
    }
    if (error instanceof Error) return error.message
  }
  return String(error)
}

/** A transport over the HttpClient in context (which must not follow redirects). */
export const make = (options: Options = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const timeout = Duration.decode(options.timeout ?? DEFAULT_TIMEOUT)
    const timeoutMs = Duration.toMillis(timeout)

    const post = (request: WebhookRequest) =>
      Effect.scoped(
        client
          .execute(
            HttpClientRequest.post(request.url).pipe(
              HttpClientRequest.setHeaders(request.headers),
              HttpClientRequest.bodyText(request.body, "application/json")
            )
          )
          // Drain the body so the socket is released; its content is not kept.
          .pipe(Effect.tap((response) => Effect.ignore(response.arrayBuffer)))
      )

    const send = (request: WebhookRequest): Effect.Effect<WebhookResponse> =>
      Effect.suspend(() => {
        const started = performance.now()
        const elapsed = () => Math.round(performance.now() - started)
        if (options.blockPrivate === true) {
          // IP literals never reach the resolver, so they are checked here; names in guardedLookup.
          const host = hostOf(request.url)
          if (isIP(host) !== 0 && isPrivateAddress(host)) {
            return Effect.succeed<WebhookResponse>({
              statusCode: null,
              durationMs: 0,
              error: `destination ${host} is a private, loopback or link-local address (FLAGPORT_WEBHOOK_BLOCK_PRIVATE)`
            })
          }
        }
        return post(request).pipe(
          Effect.timeoutFail({ duration: timeout, onTimeout: () => `timed out after ${timeoutMs} ms` }),
          Effect.match({
            onSuccess: (response): WebhookResponse => ({ statusCode: response.status, durationMs: elapsed(), error: null }),
            onFailure: (error): WebhookResponse => ({
              statusCode: null,
              durationMs: elapsed(),
              error: typeof error === "string" ? error : describe(error)
            })
          }),
          Effect.catchAllDefect((defect) =>
            Effect.succeed<WebhookResponse>({ statusCode: null, durationMs: elapsed(), error: describe(defect) })
          )
        )
      })

    return WebhookTransport.of({ send })
  })

/** The transport with its own node:http agents (address guard installed when `blockPrivate`). */
export const layer = (options: Options = {}): Layer.Layer<WebhookTransport> =>
  Layer.effect(WebhookTransport, make(options)).pipe(
    Layer.provide(NodeHttpClient.layerWithoutAgent),
    Layer.provide(
      NodeHttpClient.makeAgentLayer(options.blockPrivate === true ? { lookup: guardedLookup } : {})
    )
  )

/** Settings from the environment: FLAGPORT_WEBHOOK_BLOCK_PRIVATE=true refuses private destinations. */
export const config = Config.all({
  blockPrivate: Config.boolean("FLAGPORT_WEBHOOK_BLOCK_PRIVATE").pipe(Config.withDefault(false))
})

/** `layer` configured from the environment (see `config`); fails at startup on a malformed value. */
export const layerConfig: Layer.Layer<WebhookTransport, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(config, (settings) => layer(settings))
)
