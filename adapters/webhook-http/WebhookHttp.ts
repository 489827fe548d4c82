import { Config, type ConfigError, Duration, Effect, Layer } from "effect"
import * as Http from "node:http"
import * as Https from "node:https"
import { isIP } from "node:net"
import { isSuccessStatus } from "../../src/domain/webhooks/RetrySchedule.js"
import { RESPONSE_PREFIX_BYTES } from "../../src/domain/webhooks/WebhookDelivery.js"
import { hostOf, isPrivateAddress } from "../../src/domain/webhooks/WebhookUrl.js"
import { WebhookTransport, type WebhookRequest, type WebhookResponse } from "../../src/ports/WebhookTransport.js"
import { guardedLookup } from "./GuardedLookup.js"

/**
 * The production WebhookTransport: one POST over node:http / node:https per attempt, on its own
 * connection. Redirects are not followed (a 3xx is a failed attempt, as Standard Webhooks senders do).
 *
 * The outcome is decided by the status line alone. After it, the body of a 2xx is not read at all,
 * and of any other answer at most RESPONSE_PREFIX_BYTES (for the delivery log), waiting at most
 * PREFIX_WAIT_MS for them; then the connection is closed. So a receiver that streams a huge or
 * endless body costs a few KiB and no time, and its 2xx still counts.
 */

export interface Options {
  /** The status line must arrive within this time (contract: 10 s). */
  readonly timeout?: Duration.DurationInput
  /** Refuse destinations in private, loopback and link-local ranges, checked after DNS resolution. */
  readonly blockPrivate?: boolean
}

export const DEFAULT_TIMEOUT = Duration.seconds(10)

/** How long the body prefix of a non-2xx answer may take to arrive once the status is in. */
export const PREFIX_WAIT_MS = 1_000

const describe = (error: unknown): string => {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code
    return code !== undefined && !error.message.includes(code) ? `${code}: ${error.message}` : error.message
  }
  return String(error)
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
const exchange = (request: WebhookRequest, blockPrivate: boolean) =>
  Effect.async<Answer, string>((resume) => {
    const url = new URL(request.url)
    const body = Buffer.from(request.body, "utf8")
    const outgoing = (url.protocol === "https:" ? Https : Http).request(url, {
      method: "POST",
      headers: { ...request.headers, "content-type": "application/json", "content-length": String(body.length) },
      agent: false,
      ...(blockPrivate ? { lookup: guardedLookup } : {})
    })
    let settled = false
    outgoing.on("error", (error) => {
      if (settled) return
      settled = true
      resume(Effect.fail(describe(error)))
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

/** At most RESPONSE_PREFIX_BYTES of the body, as UTF-8, whatever has arrived within PREFIX_WAIT_MS. */
const readPrefix = (response: Http.IncomingMessage) =>
  Effect.async<string>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const done = () => {
      cleanup()
      resume(Effect.succeed(Buffer.concat(chunks).subarray(0, RESPONSE_PREFIX_BYTES).toString("utf8")))
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
      if (size >= RESPONSE_PREFIX_BYTES) done()
    }
    const timer = setTimeout(done, PREFIX_WAIT_MS)
    const cleanup = () => {
      clearTimeout(timer)
      response.off("data", onData).off("end", done).off("close", done).off("error", done)
      response.pause()
    }
    response.on("data", onData).on("end", done).on("close", done).on("error", done)
    return Effect.sync(cleanup)
  })

/** A transport with the given timeout and address guard. */
export const make = (options: Options = {}) => {
  const timeout = Duration.decode(options.timeout ?? DEFAULT_TIMEOUT)
  const timeoutMs = Duration.toMillis(timeout)
  const blockPrivate = options.blockPrivate === true

  const post = (request: WebhookRequest) =>
    Effect.uninterruptibleMask((restore) =>
      restore(
        exchange(request, blockPrivate).pipe(
          Effect.timeoutFail({ duration: timeout, onTimeout: () => `timed out after ${timeoutMs} ms` })
        )
      ).pipe(
        Effect.flatMap(({ request: outgoing, response }) => {
          const statusCode = response.statusCode ?? 0
          const body = isSuccessStatus(statusCode) ? Effect.succeed("") : readPrefix(response)
          // The rest of the body is never read: close the connection.
          return restore(Effect.map(body, (prefix) => ({ statusCode, body: prefix }))).pipe(
            Effect.ensuring(Effect.sync(() => outgoing.destroy()))
          )
        })
      )
    )

  const send = (request: WebhookRequest): Effect.Effect<WebhookResponse> =>
    Effect.suspend(() => {
      const started = performance.now()
      const elapsed = () => Math.round(performance.now() - started)
      if (blockPrivate) {
        // IP literals never reach the resolver, so they are checked here; names in guardedLookup.
        const host = hostOf(request.url)
        if (isIP(host) !== 0 && isPrivateAddress(host)) {
          return Effect.succeed<WebhookResponse>({
            statusCode: null,
            durationMs: 0,
            error: `destination ${host} is a private, loopback or link-local address (FLAGPORT_WEBHOOK_BLOCK_PRIVATE)`,
            body: ""
          })
        }
      }
      return post(request).pipe(
        Effect.match({
          onSuccess: ({ body, statusCode }): WebhookResponse => ({ statusCode, durationMs: elapsed(), error: null, body }),
          onFailure: (error): WebhookResponse => ({ statusCode: null, durationMs: elapsed(), error, body: "" })
        }),
        Effect.catchAllDefect((defect) =>
          Effect.succeed<WebhookResponse>({ statusCode: null, durationMs: elapsed(), error: describe(defect), body: "" })
        )
      )
    })

  return WebhookTransport.of({ send })
}

/** The transport (address guard installed when `blockPrivate`). */
export const layer = (options: Options = {}): Layer.Layer<WebhookTransport> => Layer.succeed(WebhookTransport, make(options))

/** Settings from the environment: FLAGPORT_WEBHOOK_BLOCK_PRIVATE=true refuses private destinations. */
export const config = Config.all({
  blockPrivate: Config.boolean("FLAGPORT_WEBHOOK_BLOCK_PRIVATE").pipe(Config.withDefault(false))
})

/** `layer` configured from the environment (see `config`); fails at startup on a malformed value. */
export const layerConfig: Layer.Layer<WebhookTransport, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(config, (settings) => layer(settings))
)
