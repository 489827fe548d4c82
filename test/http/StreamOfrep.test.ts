/**
 * OFREP's bulk evaluation points at the change stream: its `eventStreams` carry this server's
 * absolute `/v1/stream` URL with a stream token for the caller, which opens (with no header) and
 * sends an event after a change. Behind a proxy (FLAGPORT_TRUST_PROXY) the URL takes the
 * forwarded origin; a mounted app's URL carries its prefix.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime, type Context } from "effect"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { request, seed, startServer } from "./fixtures.js"
import { etagOf, openStream } from "./sse.js"

const closers: Array<() => Promise<unknown> | void> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})

const bulk = (base: string, key: string, headers: Record<string, string> = {}) =>
  request(base, "POST", "/ofrep/v1/evaluate/flags", { key, body: { context: { targetingKey: "u" } }, headers: { "flagport-environment": "development", ...headers } })

const streamUrlOf = (reply: { body: unknown }) => {
  const streams = (reply.body as { eventStreams: Array<{ type: string; url: string }> }).eventStreams
  expect(streams).toHaveLength(1)
  expect(streams[0]!.type).toBe("sse")
  return new URL(streams[0]!.url)
}

describe("OFREP eventStreams", () => {
  it("name this server's stream with a token that opens it and carries the next change", async () => {
    const t = await startServer()
    closers.push(t.close)
    const reply = await bulk(t.url, t.keys.client)
    expect(reply.status).toBe(200)
    const url = streamUrlOf(reply)
    expect(`${url.origin}${url.pathname}`).toBe(`${t.url}/v1/stream`)
    expect(url.searchParams.get("token")).toMatch(/^v1\./)
    // The same token again for the same key and scope (nothing signed per request).
    expect(streamUrlOf(await bulk(t.url, t.keys.client)).href).toBe(url.href)
    const s = await openStream(t.url, `${url.pathname}${url.search}`)
    closers.push(s.close)
    expect(s.status).toBe(200)
    const first = etagOf(await s.event(0))
    const created = await request(t.url, "POST", "/v1/projects/p1/flags", {
      key: t.keys.scoped,
      body: { key: "ofrep-live", name: "x", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    expect(created.status).toBe(201)
    expect(etagOf(await s.event(1))).not.toBe(first)
  })

  it("take the forwarded origin only when FLAGPORT_TRUST_PROXY is on, and the mount prefix", async () => {
    const storage = ManagedRuntime.make(StorageLayer.memoryStorage)
    closers.push(() => storage.dispose())
    const context: Context.Context<StorageLayer.Storage> = await storage.runPromise(Effect.context<StorageLayer.Storage>())
    const keys = await storage.runPromise(seed)
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "flags.example.com" }
    for (const trustProxy of [true, false]) {
      const flagport = await makeHandlers({ prefix: "/flags", services: App.servicesFrom(Layer.succeedContext(context)), lane: { trustProxy } })
      const host = createServer((req, res) => flagport.node(req, res))
      await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
      closers.push(async () => {
        host.closeAllConnections()
        await new Promise<void>((resolve) => host.close(() => resolve()))
        await flagport.dispose()
      })
      const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
      const url = streamUrlOf(await bulk(`${base}/flags`, keys.client, forwarded))
      expect(`${url.origin}${url.pathname}`).toBe(trustProxy ? "https://flags.example.com/flags/v1/stream" : `${base}/flags/v1/stream`)
    }
  })
})
