/**
 * `GET /v1/stream` wherever Flagport is mounted: the node handler under a prefix in a host's
 * node:http server, the web `Request => Response` handler, and the Effect layer alone
 * (HttpApiBuilder, without the evaluation lane). Each gets its first event, an event after a change,
 * and lets go of the stream when the client does.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as App from "../../adapters/http/serving/App.js"
import type { FlagportHandlers } from "../../adapters/http/serving/Embed.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { booleanFlag } from "../webhooks/fixtures/Flags.js"
import { type Keys, request } from "./fixtures.js"
import { type Host, startHost } from "./host.js"
import { etagOf, openStream, type SseEvent } from "./sse.js"

let host: Host
let flagport: FlagportHandlers
let base: string
let keys: Keys

beforeAll(async () => {
  host = await startHost()
  keys = host.keys
  flagport = await host.mount({ prefix: "/flags" })
  base = await host.listen((req, res) => {
    if (req.url?.startsWith("/flags/")) return flagport.node(req, res)
    res.writeHead(404)
    res.end()
  })
})
afterAll(async () => {
  await host?.close()
})

let flagCount = 0
const change = () => host.run(Effect.flatMap(Flags, (flags) => flags.create("p1", booleanFlag(`embedded-${++flagCount}`))))

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

  it("the Effect layer alone (HttpApiBuilder, no evaluation lane), with the same events", async () => {
    const live = App.layer().pipe(Layer.provide(App.servicesFrom(Layer.succeedContext(host.context))))
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
