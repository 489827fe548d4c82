import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as WebhookHttp from "../../adapters/webhook-http/WebhookHttp.js"
import { guardedLookup } from "../../adapters/webhook-http/GuardedLookup.js"
import { WebhookTransport } from "../../src/ports/WebhookTransport.js"
import { receiver } from "./fixtures/Receiver.js"

const send = (url: string, options: WebhookHttp.Options = {}, body = '{"hello":"wörld"}') =>
  Effect.flatMap(WebhookTransport, (t) =>
    t.send({ url, body, headers: { "webhook-id": "evt_1", "webhook-timestamp": "1700000000" } })
  ).pipe(Effect.provide(WebhookHttp.layer(options)))

/**
 * A receiver that answers `status` at once and then streams its body without end, counting the
 * bytes it managed to write before the sender closed the connection.
 */
const streamingReceiver = (status: number, chunk: Buffer) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const stats = { written: 0, closed: false }
      const server = Http.createServer((req, res) => {
        req.resume()
        res.writeHead(status, { "content-type": "text/plain" })
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) stats.written += chunk.length
          if (!res.destroyed) res.once("drain", pump)
        }
        res.on("close", () => (stats.closed = true))
        pump()
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, stats, server }
    }),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  )

const waitUntil = (condition: () => boolean) =>
  Effect.promise(async () => {
    for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20))
    return condition()
  })

const MiB = 1024 * 1024

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

  it.live("a 2xx counts on its status line: an endless body is not read and the connection is closed", () =>
    Effect.gen(function* () {
      const r = yield* streamingReceiver(200, Buffer.alloc(64 * 1024, "x"))
      const result = yield* send(r.url, { timeout: "2 seconds" })
      expect(result).toEqual({ statusCode: 200, error: null, durationMs: result.durationMs })
      expect(result.durationMs).toBeLessThan(1_000)
      expect(yield* waitUntil(() => r.stats.closed)).toBe(true)
      // What the receiver could push before the close: socket buffers, not the stream.
      expect(r.stats.written).toBeLessThan(16 * MiB)
    }).pipe(Effect.scoped))

  it.live("a non-2xx: its body is never read nor reported, the connection is closed at once", () =>
    Effect.gen(function* () {
      const r = yield* streamingReceiver(503, Buffer.from("INTERNAL-SECRET: db_password=hunter2 ".repeat(4096)))
      const result = yield* send(r.url, { timeout: "2 seconds" })
      expect(result).toEqual({ statusCode: 503, error: null, durationMs: result.durationMs })
      expect(JSON.stringify(result)).not.toContain("SECRET")
      expect(result.durationMs).toBeLessThan(1_000)
      expect(yield* waitUntil(() => r.stats.closed)).toBe(true)
      expect(r.stats.written).toBeLessThan(16 * MiB)
    }).pipe(Effect.scoped))

  it.live("turns a refused connection into an error", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(closedPort)
      const result = yield* send(`http://127.0.0.1:${port}/hook`)
      expect(result.statusCode).toBeNull()
      expect(result.error).toBe("connection refused (ECONNREFUSED)")
    }))

  it.live("with blockPrivate, refuses loopback literals and names that resolve to loopback", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const literal = yield* send(r.url, { blockPrivate: true })
      expect(literal.statusCode).toBeNull()
      expect(literal.error).toBe("destination refused: 127.0.0.1 is loopback, refused by FLAGPORT_WEBHOOK_BLOCK_PRIVATE")
      const named = yield* send(`http://localhost:${r.port}/hook`, { blockPrivate: true })
      expect(named.statusCode).toBeNull()
      expect(named.error).toBe("destination refused: localhost resolves to an address that is loopback, refused by FLAGPORT_WEBHOOK_BLOCK_PRIVATE")
      expect(r.received).toHaveLength(0)
      // Off by default: the same names are reachable.
      expect((yield* send(`http://localhost:${r.port}/hook`)).statusCode).toBe(200)
    }).pipe(Effect.scoped))

  it.live("refuses link-local and cloud metadata addresses whatever blockPrivate says, before connecting", () =>
    Effect.gen(function* () {
      for (const host of ["169.254.169.254", "[fd00:ec2::254]", "[::ffff:169.254.169.254]", "[64:ff9b::a9fe:a9fe]", "[2002:a9fe:a9fe::1]", "[fe80::1]", "100.100.100.200"]) {
        for (const blockPrivate of [false, true]) {
          const result = yield* send(`http://${host}/latest/meta-data/`, { blockPrivate, timeout: "2 seconds" })
          expect(result.statusCode, host).toBeNull()
          expect(result.durationMs, host).toBe(0)
          expect(result.error, host).toMatch(/^destination refused: .* never a webhook destination$/)
        }
      }
    }))

  it.live("refuses link-local and metadata addresses in DNS answers whatever blockPrivate says", () =>
    Effect.gen(function* () {
      const lookup = (host: string, blockPrivate: boolean) =>
        Effect.async<string>((resume) => {
          guardedLookup(blockPrivate)(host, {}, (error, address) => resume(Effect.succeed(error === null ? `ok ${String(address)}` : error.message)))
        })
      expect(yield* lookup("169.254.169.254", false)).toBe(
        "destination refused: 169.254.169.254 resolves to an address that is link-local (cloud metadata services), never a webhook destination"
      )
      expect(yield* lookup("::ffff:169.254.169.254", false)).toContain("never a webhook destination")
      expect(yield* lookup("127.0.0.1", false)).toBe("ok 127.0.0.1")
      expect(yield* lookup("127.0.0.1", true)).toContain("refused by FLAGPORT_WEBHOOK_BLOCK_PRIVATE")
    }))

  it.live("layerConfig: FLAGPORT_WEBHOOK_BLOCK_PRIVATE=true turns the guard on; it is off by default", () =>
    Effect.gen(function* () {
      const r = yield* receiver(() => 200)
      const sendWith = (env: Record<string, string>) =>
        Effect.flatMap(WebhookTransport, (t) => t.send({ url: r.url, body: "{}", headers: {} })).pipe(
          Effect.provide(
            WebhookHttp.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))))
          )
        )
      expect((yield* sendWith({ FLAGPORT_WEBHOOK_BLOCK_PRIVATE: "true" })).error).toContain("FLAGPORT_WEBHOOK_BLOCK_PRIVATE")
      expect((yield* sendWith({})).statusCode).toBe(200)
      expect((yield* sendWith({ FLAGPORT_WEBHOOK_BLOCK_PRIVATE: "false" })).statusCode).toBe(200)
      expect(r.received).toHaveLength(2)
    }).pipe(Effect.scoped))
})
