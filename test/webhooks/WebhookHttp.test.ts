import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as WebhookHttp from "../../adapters/webhook-http/WebhookHttp.js"
import { WebhookTransport } from "../../src/ports/WebhookTransport.js"
import { receiver } from "./fixtures/Receiver.js"

const send = (url: string, options: WebhookHttp.Options = {}, body = '{"hello":"wörld"}') =>
  Effect.flatMap(WebhookTransport, (t) =>
    t.send({ url, body, headers: { "webhook-id": "evt_1", "webhook-timestamp": "1700000000" } })
  ).pipe(Effect.provide(WebhookHttp.layer(options)))

const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = Http.createServer()
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port
      s.close(() => resolve(port))
    })
  })

describe("adapters/webhook-http", () => {
  it.live("POSTs the body and headers as given and reports the status", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const result = yield* send(r.url)
      expect(result.statusCode).toBe(200)
      expect(result.error).toBeNull()
      expect(result.durationMs).toBeGreaterThanOrEqual(0)
      expect(r.received).toHaveLength(1)
      const got = r.received[0]!
      expect(got.method).toBe("POST")
      expect(got.path).toBe("/hook")
      expect(got.body).toBe('{"hello":"wörld"}')
      expect(got.headers["content-type"]).toBe("application/json")
      expect(got.headers["webhook-id"]).toBe("evt_1")
      expect(got.headers["webhook-timestamp"]).toBe("1700000000")
    }).pipe(Effect.scoped))

  it.live("reports non-2xx answers and does not follow redirects", () =>
    Effect.gen(function* () {
      const r = yield* receiver((_, i) => (i === 0 ? 500 : 302))
      expect((yield* send(r.url)).statusCode).toBe(500)
      expect((yield* send(r.url)).statusCode).toBe(302)
      expect(r.received).toHaveLength(2)
    }).pipe(Effect.scoped))

  it.live("turns a missing answer into a timeout error, never a failure", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => "hang")
      const result = yield* send(r.url, { timeout: "300 millis" })
      expect(result.statusCode).toBeNull()
      expect(result.error).toContain("timed out after 300 ms")
      expect(result.durationMs).toBeGreaterThanOrEqual(250)
    }).pipe(Effect.scoped))

  it.live("turns a refused connection into an error", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(closedPort)
      const result = yield* send(`http://127.0.0.1:${port}/hook`)
      expect(result.statusCode).toBeNull()
      expect(result.error).toMatch(/ECONNREFUSED|connect/i)
    }))

  it.live("with blockPrivate, refuses loopback literals and names that resolve to loopback", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const literal = yield* send(r.url, { blockPrivate: true })
      expect(literal.statusCode).toBeNull()
      expect(literal.error).toContain("private")
      const named = yield* send(`http://localhost:${r.port}/hook`, { blockPrivate: true })
      expect(named.statusCode).toBeNull()
      expect(named.error).toContain("private")
      expect(r.received).toHaveLength(0)
      // Off by default: the same names are reachable.
      expect((yield* send(`http://localhost:${r.port}/hook`)).statusCode).toBe(200)
    }).pipe(Effect.scoped))

  it.live("layerConfig: FLAGPORT_WEBHOOK_BLOCK_PRIVATE=true turns the guard on; it is off by default", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const sendWith = (env: Record<string, string>) =>
        Effect.flatMap(WebhookTransport, (t) => t.send({ url: r.url, body: "{}", headers: {} })).pipe(
          Effect.provide(
            WebhookHttp.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
          )
        )
      expect((yield* sendWith({ FLAGPORT_WEBHOOK_BLOCK_PRIVATE: "true" })).error).toContain("private")
      expect((yield* sendWith({})).statusCode).toBe(200)
      expect((yield* sendWith({ FLAGPORT_WEBHOOK_BLOCK_PRIVATE: "false" })).statusCode).toBe(200)
      expect(r.received).toHaveLength(2)
    }).pipe(Effect.scoped))
})
