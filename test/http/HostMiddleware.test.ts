/**
 * A host serving `layer()` in its own Effect HTTP server (NodeHttpServer, HttpApiBuilder.serve)
 * with `hostMiddleware` gets what the node and web handlers add in front of the app: the security
 * headers, 405 with `Allow`, the insights report's CORS preflight (and CORS on its answer), and a
 * 413 in the envelope for a chunked body past 1 MiB (a small one still goes through). Each answer
 * is checked against the web handler's over the same storage.
 */
import { createServer } from "node:http"
import * as Http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as App from "../../adapters/http/serving/App.js"
import { type FlagportHandlers, hostMiddleware } from "../../adapters/http/serving/Embed.js"
import { request } from "./fixtures.js"
import { type Host, startHost } from "./host.js"

let host: Host
let handlers: FlagportHandlers
let base: string
let server: ManagedRuntime.ManagedRuntime<HttpServer.HttpServer, unknown>

beforeAll(async () => {
  host = await startHost()
  handlers = await host.mount({ prefix: "" })
  const FlagportLive = App.layer().pipe(Layer.provide(App.servicesFrom(Layer.succeedContext(host.context))))
  // What docs/guide/embedding.md shows a host doing, middleware included.
  const ServerLive = HttpApiBuilder.serve(hostMiddleware).pipe(
    Layer.provide(FlagportLive),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
  server = ManagedRuntime.make(ServerLive)
  const address = await server.runPromise(Effect.map(HttpServer.HttpServer, (s) => s.address))
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  base = `http://127.0.0.1:${address.port}`
})
afterAll(async () => {
  await server?.dispose()
  await host?.close()
})

const SECURITY = ["x-content-type-options", "x-frame-options", "content-security-policy"]
const headersOf = (response: Response, names: ReadonlyArray<string>) => Object.fromEntries(names.map((name) => [name, response.headers.get(name)]))

/** POSTs `total` bytes of a JSON string as chunks of 64 KiB, without Content-Length. */
const chunked = (path: string, key: string, body: { readonly total: number } | string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = Http.request(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "transfer-encoding": "chunked" }
    })
    req.on("response", (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("error", reject)
    if (typeof body === "string") return void req.end(body)
    let sent = 0
    const pump = () => {
      while (sent < body.total) {
        const chunk = sent === 0 ? '{"key":"big","name":"' : "x".repeat(Math.min(65536, body.total - sent))
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      req.end('"}')
    }
    pump()
  })

describe("hostMiddleware in a host's own Effect HTTP server", () => {
  it("every answer carries the security headers, as the handlers'", async () => {
    for (const path of ["/health", "/v1/projects", "/v1/nowhere"]) {
      const viaHost = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${host.keys.global}` } })
      const viaHandler = await handlers.web(new Request(`http://host.example${path}`, { headers: { authorization: `Bearer ${host.keys.global}` } }))
      expect(viaHost.status, path).toBe(viaHandler.status)
      expect(headersOf(viaHost, SECURITY), path).toEqual(headersOf(viaHandler, SECURITY))
      expect(viaHost.headers.get("x-content-type-options"), path).toBe("nosniff")
    }
  })

  it("a known path asked with a method it does not answer is 405 with Allow, in the envelope", async () => {
    const viaHost = await fetch(`${base}/v1/evaluate`, { method: "DELETE", headers: { authorization: `Bearer ${host.keys.client}` } })
    const viaHandler = await handlers.web(new Request("http://host.example/v1/evaluate", { method: "DELETE" }))
    expect(viaHost.status).toBe(405)
    expect(viaHost.headers.get("allow")).toBe(viaHandler.headers.get("allow"))
    expect(await viaHost.json()).toEqual(await viaHandler.json())
  })

  it("answers the insights report's CORS preflight, and its answer carries CORS, as the handlers do", async () => {
    const preflight = {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" }
    }
    const viaHost = await fetch(`${base}/v1/insights`, preflight)
    const viaHandler = await handlers.web(new Request("http://host.example/v1/insights", preflight))
    expect(viaHost.status).toBe(viaHandler.status)
    expect(viaHost.status).toBeLessThan(300)
    const cors = [...(viaHandler.headers as unknown as Map<string, string>).keys()].filter((name) => name.startsWith("access-control-"))
    expect(cors).toContain("access-control-allow-origin")
    expect(headersOf(viaHost, cors)).toEqual(headersOf(viaHandler, cors))

    const to = new Date()
    const report = { environment: "development", from: new Date(to.getTime() - 60_000).toISOString(), to: to.toISOString(), counts: [] }
    const post = { method: "POST", headers: { origin: "https://app.example", authorization: `Bearer ${host.keys.client}`, "content-type": "application/json" }, body: JSON.stringify(report) }
    const postedHost = await fetch(`${base}/v1/insights`, post)
    const postedHandler = await handlers.web(new Request("http://host.example/v1/insights", post))
    expect(postedHost.status, await postedHost.clone().text()).toBe(postedHandler.status)
    expect(postedHost.status).toBeLessThan(300)
    expect(postedHost.headers.get("access-control-allow-origin")).toBe(postedHandler.headers.get("access-control-allow-origin"))
    expect(postedHost.headers.get("access-control-allow-origin")).not.toBeNull()
  })

  it("a chunked body past 1 MiB is 413 in the envelope and stores nothing; a small one goes through", async () => {
    const big = await chunked("/v1/projects/p1/flags", host.keys.global, { total: 2 * 1024 * 1024 })
    expect(big.status).toBe(413)
    expect(JSON.parse(big.body)).toMatchObject({ error: { code: "payload_too_large" } })
    const small = await chunked(
      "/v1/projects/p1/flags",
      host.keys.global,
      JSON.stringify({ key: "chunked", name: "Chunked", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    )
    expect(small.status, small.body).toBe(201)
    const flags = await request(base, "GET", "/v1/projects/p1/flags", { key: host.keys.global })
    const keys = (flags.body as { data: Array<{ key: string }> }).data.map((f) => f.key)
    expect(keys).toContain("chunked")
    expect(keys).not.toContain("big")
  })
})
