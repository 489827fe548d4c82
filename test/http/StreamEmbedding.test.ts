/**
 * `GET /v1/stream` wherever Flagport is mounted: the node handler under a prefix in a host's
 * node:http server, the web `Request => Response` handler, and the Effect layer alone
 * (HttpApiBuilder, without the lean lane). Each gets its first event, an event after a change,
 * and lets go of the stream when the client does.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Context, Effect, Layer, ManagedRuntime } from "effect"
import * as App from "../../adapters/http/serving/App.js"
import { type FlagportHandlers, makeHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/storage/StorageLayer.js"
import { Flags } from "../../src/services/Flags.js"
import { booleanFlag } from "../webhooks/fixtures/Flags.js"
import { type Keys, request, seed } from "./fixtures.js"
import { etagOf, openStream, type SseEvent } from "./sse.js"

let storage: ManagedRuntime.ManagedRuntime<StorageLayer.Storage, never>
let context: Context.Context<StorageLayer.Storage>
let flagport: FlagportHandlers
let host: Server
let base: string
let keys: Keys

beforeAll(async () => {
  storage = ManagedRuntime.make(StorageLayer.memoryStorage)
  context = await storage.runPromise(Effect.context<StorageLayer.Storage>())
  keys = await storage.runPromise(seed)
  flagport = await makeHandlers({ prefix: "/flags", services: App.servicesFrom(Layer.succeedContext(context)) })
  host = createServer((req, res) => {
    if (req.url?.startsWith("/flags/")) return flagport.node(req, res)
    res.writeHead(404)
    res.end()
  })
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
})
afterAll(async () => {
  host?.closeAllConnections()
  await new Promise<void>((resolve) => host?.close(() => resolve()))
  await flagport?.dispose()
  await storage?.dispose()
})

let flagCount = 0
const change = () => storage.runPromise(Effect.flatMap(Flags, (flags) => flags.create("p1", booleanFlag(`embedded-${++flagCount}`))))

/** The events of a web Response's body, read as they come. */
const webEvents = (response: Response) => {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let buffered = ""
  const next = async (): Promise<SseEvent> => {
    for (;;) {
      const end = buffered.indexOf("\n\n")
      if (end !== -1) {
        const block = buffered.slice(0, end)
        buffered = buffered.slice(end + 2)
        if (block.startsWith(":")) continue
        const field = (name: string) => block.split("\n").find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2)
        return { id: field("id"), event: field("event"), data: field("data") ?? "" }
      }
      const { done, value } = await reader.read()
      if (done) throw new Error("the stream ended")
      buffered += decoder.decode(value, { stream: true })
    }
  }
  return { next, cancel: () => reader.cancel() }
}

const configEtag = async () =>
  (await request(base, "GET", "/flags/v1/config?environment=development", { key: keys.client })).headers.get("etag")

describe("GET /v1/stream when mounted", () => {
  it("node handler under a prefix", async () => {
    const s = await openStream(base, "/flags/v1/stream?environment=development", { authorization: `Bearer ${keys.client}` })
    try {
      expect(s.status).toBe(200)
      expect(etagOf(await s.event(0))).toBe(await configEtag())
      await change()
      expect(etagOf(await s.event(1))).toBe(await configEtag())
    } finally {
      s.close()
    }
  })

  it("web handler", async () => {
    const response = await flagport.web(
      new Request("http://host.example/flags/v1/stream?environment=development", { headers: { authorization: `Bearer ${keys.client}` } })
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
    expect(response.headers.get("x-accel-buffering")).toBe("no")
    const events = webEvents(response)
    expect(etagOf(await events.next())).toBe(await configEtag())
    await change()
    expect(etagOf(await events.next())).toBe(await configEtag())
    await events.cancel()
  })

  it("the Effect layer alone (HttpApiBuilder, no lean lane), with the same events", async () => {
    const live = App.layer().pipe(Layer.provide(App.servicesFrom(Layer.succeedContext(context))))
    const { dispose, handler } = HttpApiBuilder.toWebHandler(Layer.mergeAll(live, HttpServer.layerContext))
    try {
      const response = await handler(
        new Request("http://host.example/v1/stream?environment=development", { headers: { authorization: `Bearer ${keys.client}` } })
      )
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-cache")
      const events = webEvents(response)
      expect(etagOf(await events.next())).toBe(await configEtag())
      await change()
      expect(etagOf(await events.next())).toBe(await configEtag())
      await events.cancel()
      const refused = await handler(new Request("http://host.example/v1/stream?environment=development&token=forged"))
      expect(refused.status).toBe(401)
      expect(await refused.json()).toEqual({ error: { code: "unauthorized", message: "Invalid or expired stream token." } })
    } finally {
      await dispose()
    }
  })
})
