/**
 * Embedding: the whole API under a prefix of the host's choice, as a node (req, res) handler
 * inside a host node:http app (with the prefix in the URL, or already stripped as Express does)
 * and as a web Request => Response handler; the OpenAPI document reflects the prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { Effect, Layer, Tracer } from "effect"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers, stripPrefix, type FlagportHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { request, type Keys } from "./fixtures.js"
import { type Host, startHost } from "./host.js"

let host: Host
let flagport: FlagportHandlers
let base: string
let keys: Keys

beforeAll(async () => {
  host = await startHost()
  keys = host.keys
  flagport = await host.mount({ prefix: "/flags/" })
  base = await host.listen((req, res) => {
    if (req.url?.startsWith("/flags/") || req.url === "/flags") return flagport.node(req, res)
    if (req.url?.startsWith("/stripped/")) {
      // What Express does for app.use("/stripped", handler): the handler sees the rest of the URL.
      req.url = req.url.slice("/stripped".length)
      return flagport.node(req, res)
    }
    res.writeHead(200, { "content-type": "text/plain" })
    res.end("host")
  })
})
afterAll(async () => {
  await host?.close()
})

describe("node handler under a prefix", () => {
  it("serves the service, management and evaluation routes under the prefix; the host keeps the rest", async () => {
    expect((await request(base, "GET", "/flags/health")).body).toEqual({ status: "ok", database: "ok" })
    const created = await request(base, "POST", "/flags/v1/projects/p1/flags", {
      key: keys.global,
      body: { key: "embedded", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    expect(created.status).toBe(201)
    const evaluated = await request(base, "GET", "/flags/v1/flags/embedded/eval?environment=development&key=u", { key: keys.client })
    expect(evaluated.body).toEqual({ flagKey: "embedded", value: false, variationKey: "off", reason: { kind: "OFF" } })
    expect((await request(base, "GET", "/elsewhere")).text).toBe("host")
    expect((await request(base, "GET", "/flags/v1/unknown", { key: keys.global })).status).toBe(404)
  })
  it("also works when the host strips the prefix itself (Express app.use)", async () => {
    expect((await request(base, "GET", "/stripped/health")).status).toBe(200)
    expect((await request(base, "GET", "/stripped/v1/config?environment=development", { key: keys.client })).status).toBe(200)
  })
  it("the OpenAPI document names the prefix as its server", async () => {
    const spec = (await request(base, "GET", "/flags/openapi.json")).body as { servers: Array<{ url: string }>; paths: object }
    expect(spec.servers.map((s) => s.url)).toEqual(["/flags"])
    expect(Object.keys(spec.paths)).toContain("/v1/evaluate")
    expect(flagport.openApi()).toEqual(spec)
    expect((await request(base, "GET", "/flags/docs")).status).toBe(200)
  })
})

describe("web handler under a prefix", () => {
  it("answers lane and HttpApi routes from Request to Response", async () => {
    const auth = { authorization: `Bearer ${keys.client}` }
    const config = await flagport.web(new Request("http://host.example/flags/v1/config?environment=development", { headers: auth }))
    expect(config.status).toBe(200)
    expect(config.headers.get("etag")).toMatch(/^W\//)
    const evaluate = await flagport.web(
      new Request("http://host.example/flags/v1/evaluate", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ environment: "development", context: { key: "u" } })
      })
    )
    expect(evaluate.status).toBe(200)
    expect(((await evaluate.json()) as { environment: string }).environment).toBe("development")
    const projects = await flagport.web(new Request("http://host.example/flags/v1/projects", { headers: { authorization: `Bearer ${keys.global}` } }))
    expect(projects.status).toBe(200)
    const unauthorized = await flagport.web(new Request("http://host.example/flags/v1/projects"))
    expect(unauthorized.status).toBe(401)
    expect(await unauthorized.json()).toEqual({
      error: { code: "unauthorized", message: "Missing or malformed Authorization header. Expected: Bearer <api-key>." }
    })
  })
  it("answers CORS on the evaluation side under the prefix, and a bound key supplies its environment", async () => {
    const origin = { origin: "https://app.example.com" }
    const preflight = await flagport.web(new Request("http://host.example/flags/v1/config", { method: "OPTIONS", headers: origin }))
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
    const config = await flagport.web(
      new Request("http://host.example/flags/v1/config", { headers: { ...origin, authorization: `Bearer ${keys.boundClientOther}` } })
    )
    expect(config.status).toBe(200)
    expect(((await config.json()) as { environment: string }).environment).toBe("production")
    expect(config.headers.get("access-control-expose-headers")).toBe("ETag")
    const management = await flagport.web(
      new Request("http://host.example/flags/v1/projects", { headers: { ...origin, authorization: `Bearer ${keys.global}` } })
    )
    expect(management.headers.get("access-control-allow-origin")).toBeNull()
  })
})

describe("OFREP when embedded", () => {
  const ofrepRequest = (url: string, key: string, body: unknown, extra: Record<string, string> = {}) =>
    new Request(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "flagport-environment": "development", ...extra },
      body: JSON.stringify(body)
    })

  it("the node handler, the web handler and the Effect layer (HttpApi, no evaluation lane) answer alike", async () => {
    const FlagportLive = App.layer().pipe(Layer.provide(App.servicesFrom(Layer.succeedContext(host.context))))
    const { dispose, handler } = HttpApiBuilder.toWebHandler(Layer.mergeAll(FlagportLive, HttpServer.layerContext))
    try {
      const body = { context: { targetingKey: "u", plan: "beta" } }
      const node = await request(base, "POST", "/flags/ofrep/v1/evaluate/flags/embedded", { key: keys.client, body, headers: { "flagport-environment": "development" } })
      expect(node.status, node.text).toBe(200)
      expect(node.body).toMatchObject({ key: "embedded", value: false, reason: "DISABLED", variant: "off" })
      const web = await flagport.web(ofrepRequest("http://host.example/flags/ofrep/v1/evaluate/flags/embedded", keys.client, body))
      expect(await web.json()).toEqual(node.body)
      const layer = await handler(ofrepRequest("http://host.example/ofrep/v1/evaluate/flags/embedded", keys.client, body))
      expect(layer.status).toBe(200)
      expect(await layer.json()).toEqual(node.body)

      const bulkLane = await flagport.web(ofrepRequest("http://host.example/flags/ofrep/v1/evaluate/flags", keys.client, body))
      const bulkLayer = await handler(ofrepRequest("http://host.example/ofrep/v1/evaluate/flags", keys.client, body))
      expect(bulkLayer.headers.get("etag")).toBe(bulkLane.headers.get("etag"))
      // Alike but for eventStreams: each names the stream of its own mount (with a token of its own).
      const { eventStreams: laneStreams, ...laneBody } = (await bulkLane.json()) as { eventStreams: Array<{ url: string }> }
      const { eventStreams: layerStreams, ...layerBody } = (await bulkLayer.json()) as { eventStreams: Array<{ url: string }> }
      expect(layerBody).toEqual(laneBody)
      expect(new URL(laneStreams[0]!.url).origin + new URL(laneStreams[0]!.url).pathname).toBe("http://host.example/flags/v1/stream")
      expect(new URL(layerStreams[0]!.url).pathname).toBe("/v1/stream")
      const notModified = await handler(ofrepRequest("http://host.example/ofrep/v1/evaluate/flags", keys.client, body, { "if-none-match": bulkLane.headers.get("etag")! }))
      expect(notModified.status).toBe(304)

      // OFREP's own error bodies on the HttpApi path too.
      const unknown = await handler(ofrepRequest("http://host.example/ofrep/v1/evaluate/flags/nope", keys.client, body))
      expect({ status: unknown.status, body: await unknown.json() }).toEqual({
        status: 404,
        body: { key: "nope", errorCode: "FLAG_NOT_FOUND", errorDetails: "No flag 'nope' in environment 'development'" }
      })
      const anonymous = await handler(new Request("http://host.example/ofrep/v1/evaluate/flags", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }))
      expect(anonymous.status).toBe(401)
      expect(await anonymous.json()).toMatchObject({ errorCode: "GENERAL" })
    } finally {
      await dispose()
    }
  })
})

describe("stripPrefix", () => {
  it.each([
    ["/flags", "/flags/v1/x", "/v1/x"],
    ["/flags", "/flags", "/"],
    ["/flags", "/flags?x=1", "/?x=1"],
    ["/flags", "/v1/x", "/v1/x"],
    ["/flags", "/flagsmith/v1", "/flagsmith/v1"],
    ["", "/v1/x", "/v1/x"]
  ])("%s + %s -> %s", (prefix, url, expected) => {
    expect(stripPrefix(prefix, url)).toBe(expected)
  })
})

describe("the Effect layer, for Effect hosts", () => {
  it("serves the API through HttpApiBuilder without the evaluation lane, with the same answers", async () => {
    const FlagportLive = App.layer().pipe(Layer.provide(App.servicesFrom(Layer.succeedContext(host.context))))
    const { dispose, handler } = HttpApiBuilder.toWebHandler(Layer.mergeAll(FlagportLive, HttpServer.layerContext))
    try {
      const auth = { authorization: `Bearer ${keys.client}` }
      const viaLayer = await handler(new Request("http://host.example/v1/flags/embedded/eval?environment=development&key=u", { headers: auth }))
      const viaLane = await flagport.web(new Request("http://host.example/flags/v1/flags/embedded/eval?environment=development&key=u", { headers: auth }))
      expect(viaLayer.status).toBe(200)
      expect(await viaLayer.json()).toEqual(await viaLane.json())
      const unauthorized = await handler(new Request("http://host.example/v1/config?environment=development"))
      expect(unauthorized.status).toBe(401)
      const decode = await handler(
        new Request("http://host.example/v1/evaluate", {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ environment: "development", context: { key: "" } })
        })
      )
      expect(await decode.json()).toEqual({
        error: { code: "invalid_request", message: "The request is invalid.", details: [{ path: "context.key", message: "must be a non-empty string" }] }
      })
    } finally {
      await dispose()
    }
  })
})

describe("web handler body limit", () => {
  const streamOf = (bytes: number) => {
    let sent = 0
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= bytes) return controller.close()
        const chunk = new TextEncoder().encode(sent === 0 ? '{"key":"' : "x".repeat(Math.min(65536, bytes - sent)))
        sent += chunk.byteLength
        controller.enqueue(chunk)
      }
    })
  }
  it("a streamed body (no Content-Length) over 1 MiB on a management route is 413", async () => {
    const reply = await flagport.web(
      new Request("http://host.example/flags/v1/projects/p1/flags", {
        method: "POST",
        headers: { authorization: `Bearer ${keys.global}`, "content-type": "application/json" },
        body: streamOf(1024 * 1024 + 10),
        duplex: "half"
      } as RequestInit)
    )
    expect(reply.status).toBe(413)
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe("payload_too_large")
  })
  it("a small streamed body goes through", async () => {
    const body = new TextEncoder().encode(JSON.stringify({ key: "streamed", type: "boolean", variations: [{ key: "on", value: true }] }))
    const reply = await flagport.web(
      new Request("http://host.example/flags/v1/projects/p1/flags", {
        method: "POST",
        headers: { authorization: `Bearer ${keys.global}`, "content-type": "application/json" },
        body: new ReadableStream({ start: (c) => (c.enqueue(body), c.close()) }),
        duplex: "half"
      } as RequestInit)
    )
    expect(reply.status).toBe(201)
  })
})

describe("tracing", () => {
  it("makes no per-request server span (the tracer middleware is disabled for throughput)", async () => {
    const names: Array<string> = []
    const base = Effect.runSync(Effect.tracer)
    const counting = Tracer.make({
      span: (name, parent, context, links, startTime, kind) => {
        names.push(`${kind}:${name}`)
        return base.span(name, parent, context, links, startTime, kind)
      },
      context: base.context
    })
    const handlers = await makeHandlers({
      services: App.servicesFrom(StorageLayer.memoryStorage).pipe(Layer.provideMerge(Layer.setTracer(counting)))
    })
    try {
      expect((await handlers.web(new Request("http://x/health"))).status).toBe(200)
      expect((await handlers.web(new Request("http://x/v1/projects"))).status).toBe(401)
      expect(names.filter((n) => n.startsWith("server:"))).toEqual([])
    } finally {
      await handlers.dispose()
    }
  })
})
