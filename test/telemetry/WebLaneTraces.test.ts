/**
 * The evaluation lane's spans through the mounted handlers (Embed.ts), tracing on through the
 * OTEL_* variables, exported to an OTLP/HTTP receiver started here: the web (fetch-style) handler
 * traces a lane request that carries a `traceparent` exactly as the node handler does (name,
 * kind, parent, attributes, status), and neither traces one without it or with a malformed one.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import type * as Context from "effect/Context"
import { afterEach, describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers, tracingLayerConfig } from "../../adapters/http/serving/Embed.js"
import { seed } from "../http/fixtures.js"
import { attribute, listen, type OtlpSpan, spansOf } from "./otlp.js"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL
})

const CALLER_SPAN = "00f067aa0ba902b7"
/** One trace id per request, so that each span is found by it; `web` and `node` differ in the first digit. */
const traceIdOf = (handler: "web" | "node", n: number) => `${handler === "web" ? "a" : "b"}${String(n).padStart(31, "0")}`
const traceparent = (handler: "web" | "node", n: number) => `00-${traceIdOf(handler, n)}-${CALLER_SPAN}-01`

/** What must be equal between the two handlers' spans of the same request. */
const shape = (span: OtlpSpan) => ({
  name: span.name,
  kind: span.kind,
  parentSpanId: span.parentSpanId,
  attributes: Object.fromEntries(span.attributes.map((a) => [a.key, attribute(span, a.key)]))
})

describe("lane spans through the mounted handlers", () => {
  it("the web handler traces lane requests as the node handler does", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json"

    const storage = ManagedRuntime.make(StorageLayer.memoryStorage)
    cleanups.push(() => storage.dispose())
    const context: Context.Context<StorageLayer.Storage> = await storage.runPromise(Effect.context<StorageLayer.Storage>())
    const keys = await storage.runPromise(seed)
    const handlers = await makeHandlers({
      prefix: "/flags",
      services: App.servicesFrom(Layer.succeedContext(context)).pipe(Layer.provideMerge(tracingLayerConfig)),
      dashboard: false
    })
    let disposed = false
    cleanups.push(() => (disposed ? undefined : handlers.dispose()))
    const host: Server = createServer((req, res) => handlers.node(req, res))
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
    cleanups.push(() => new Promise<void>((resolve) => host.close(() => resolve())))
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`

    const created = await handlers.web(
      new Request("http://host.example/flags/v1/projects/p1/flags", {
        method: "POST",
        headers: { authorization: `Bearer ${keys.global}`, "content-type": "application/json" },
        body: JSON.stringify({ key: "f", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      })
    )
    expect(created.status).toBe(201)

    const json = { "content-type": "application/json" }
    /** The same requests for each handler: n names the trace; without `n`, no traceparent (or a malformed one). */
    const requests: ReadonlyArray<{ n?: number; malformed?: boolean; method: string; path: string; key: string; body?: unknown; headers?: Record<string, string>; status: number }> = [
      { n: 1, method: "POST", path: "/v1/evaluate", key: keys.scoped, body: { environment: "development", context: { key: "u" } }, status: 200 },
      { n: 2, method: "GET", path: "/v1/flags/f/eval?environment=development&key=u", key: keys.client, status: 200 },
      { n: 3, method: "GET", path: "/v1/flags/missing/eval?environment=development&key=u", key: keys.client, status: 404 },
      { n: 4, method: "GET", path: "/v1/config?environment=development", key: keys.client, status: 200 },
      { n: 5, method: "POST", path: "/ofrep/v1/evaluate/flags/f", key: keys.client, body: { context: { targetingKey: "u" } }, headers: { "flagport-environment": "development" }, status: 200 },
      { n: 6, method: "POST", path: "/v1/evaluate", key: "srv_not-a-key", body: { environment: "development", context: { key: "u" } }, status: 401 },
      { method: "POST", path: "/v1/evaluate", key: keys.scoped, body: { environment: "development", context: { key: "u" } }, status: 200 },
      { malformed: true, method: "POST", path: "/v1/evaluate", key: keys.scoped, body: { environment: "development", context: { key: "u" } }, status: 200 }
    ]
    for (const handler of ["web", "node"] as const) {
      for (const r of requests) {
        const headers: Record<string, string> = { authorization: `Bearer ${r.key}`, ...(r.body === undefined ? {} : json), ...r.headers }
        if (r.n !== undefined) headers.traceparent = traceparent(handler, r.n)
        if (r.malformed === true) headers.traceparent = "00-not-a-trace-01"
        const init = { method: r.method, headers, ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) }) }
        const answer = handler === "web"
          ? await handlers.web(new Request(`http://host.example/flags${r.path}`, init))
          : await fetch(`${base}/flags${r.path}`, init)
        await answer.arrayBuffer()
        expect(answer.status, `${handler} ${r.method} ${r.path}`).toBe(r.status)
      }
    }

    await handlers.dispose() // flushes the batch span processor
    disposed = true
    const spans = spansOf(collector.received)
    const laneSpans = (handler: "web" | "node") => spans.filter((s) => s.traceId.startsWith(handler === "web" ? "a" : "b") && s.traceId.slice(1).match(/^0+\d$/))
    for (const handler of ["web", "node"] as const) {
      // One span per request that carried a valid traceparent, and none for the others.
      expect(laneSpans(handler).map((s) => s.traceId).sort(), handler).toEqual([1, 2, 3, 4, 5, 6].map((n) => traceIdOf(handler, n)))
    }
    const byTrace = new Map(spans.map((s) => [s.traceId, s]))
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const web = byTrace.get(traceIdOf("web", n))!
      const node = byTrace.get(traceIdOf("node", n))!
      expect(shape(web), `request ${n}`).toEqual(shape(node))
      expect(web.kind).toBe(2) // server
      expect(web.parentSpanId).toBe(CALLER_SPAN)
    }
    const web = (n: number) => byTrace.get(traceIdOf("web", n))!
    expect(web(1).name).toBe("POST /v1/evaluate")
    expect(attribute(web(1), "http.route")).toBe("/v1/evaluate")
    expect(attribute(web(1), "http.request.method")).toBe("POST")
    expect(attribute(web(1), "http.response.status_code")).toBe(200)
    expect(web(2).name).toBe("GET /v1/flags/:flagKey/eval")
    expect(attribute(web(3), "http.response.status_code")).toBe(404)
    expect(web(4).name).toBe("GET /v1/config")
    expect(web(5).name).toBe("POST /ofrep/v1/evaluate/flags/:key")
    expect(attribute(web(6), "http.response.status_code")).toBe(401)
  })
})
