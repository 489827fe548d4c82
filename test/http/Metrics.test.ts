/**
 * GET /metrics and the JSON request log through a real server (SQLite file, the dispatcher
 * running): a scripted workload, then the scrape parsed by a strict Prometheus text-format parser
 * (test/fixtures/PromText.ts); every series docs/operations/operating.md names is there and moves as the
 * workload says; 1,000 distinct unknown paths add no series; the bearer token and the separate
 * port; the request line's fields, and no key, cookie or password in any line.
 */
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { freshSqliteFile } from "../fixtures/databases.js"
import { type Family, parsePrometheusText, seriesCount, sumOf, valueOf } from "../fixtures/PromText.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { makeHandlers, ServerMetrics } from "../../adapters/http/serving/Embed.js"
import * as App from "../../adapters/http/serving/App.js"
import { startServer as startStandalone } from "../../adapters/http/serving/Server.js"
import { metricsConfig, METRICS_TOKEN_REQUIRED } from "../../adapters/metrics/MetricsConfig.js"
import { openStream } from "./sse.js"

/** Every series the metrics table of docs/operations/operating.md lists (the test reads the table too). */
const DOCUMENTED = [
  "flagport_http_requests_total",
  "flagport_http_request_duration_seconds",
  "flagport_evaluations_total",
  "flagport_streams_open",
  "flagport_snapshot_reloads_total",
  "flagport_snapshot_reload_duration_seconds",
  "flagport_change_feed_lag_seconds",
  "flagport_webhook_deliveries_total",
  "flagport_webhook_backlog",
  "flagport_webhook_backlog_oldest_age_seconds",
  "flagport_scheduler_lag_seconds",
  "flagport_signin_failures_total",
  "flagport_password_hashes_total",
  "flagport_exposures_total",
  "flagport_metric_events_total",
  "flagport_sqlite_writer_queue",
  // PostgreSQL's pool: declared on every server, with samples only over PostgreSQL (PoolMetrics.test.ts).
  "flagport_db_pool_connections",
  "flagport_db_pool_connections_idle",
  "flagport_db_pool_waiting",
  "flagport_db_pool_max_connections",
  // Declared on every server, with a sample only with tracing on (test/telemetry/LaneSpanDrops.test.ts).
  "flagport_trace_lane_spans_dropped_total",
  "nodejs_eventloop_lag_seconds",
  "nodejs_heap_size_used_bytes",
  "process_cpu_seconds_total",
  "process_resident_memory_bytes"
]

const TOKEN = "scrape-token"
const AUTH = { authorization: `Bearer ${TOKEN}` }
const ON = { enabled: true, port: Option.none(), token: Option.some(Redacted.make(TOKEN)) } as const

let scope = Effect.runSync(Scope.make())
const closers: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

const serve = async (options: Parameters<typeof startServer>[1] = {}): Promise<TestServer> => {
  const file = await Effect.runPromise(Scope.extend(freshSqliteFile, scope))
  const server = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${file}`), options)
  closers.push(server.close)
  return server
}

const scrape = async (base: string, headers: Record<string, string> = AUTH): Promise<ReadonlyMap<string, Family>> => {
  const reply = await fetch(`${base}/metrics`, { headers })
  expect(reply.status).toBe(200)
  expect(reply.headers.get("content-type")).toContain("text/plain; version=0.0.4")
  return parsePrometheusText(await reply.text())
}

/** A webhook destination that always answers 500. */
const failingReceiver = async (): Promise<{ url: string; hits: () => number }> => {
  let hits = 0
  const server: Server = createServer((req, res) => {
    hits++
    req.resume()
    res.writeHead(500).end("no")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits: () => hits }
}

describe("GET /metrics after a scripted workload", () => {
  let t: TestServer
  let before: ReadonlyMap<string, Family>
  const lines: Array<string> = []
  // One server for the whole workload; its closers run after this block.
  const keep: Array<() => Promise<void> | void> = []

  beforeAll(async () => {
    t = await serve({ webhooks: true, metrics: ON, logFormat: "json", requestLog: (line) => lines.push(line) })
    keep.push(...closers.splice(0))
    before = await scrape(t.url)
  }, 60_000)
  afterAll(async () => {
    while (keep.length > 0) await keep.pop()!()
  })

  const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }), headers })

  it("every documented series is present, parsed strictly, and the docs' table names each", async () => {
    const families = await scrape(t.url)
    for (const name of DOCUMENTED) expect(families.has(name), name).toBe(true)
    const table = readFileSync(new URL("../../docs/operations/operating.md", import.meta.url), "utf8")
    for (const name of DOCUMENTED) expect(table, name).toContain(`\`${name}\``)
    for (const family of families.values()) if (family.name.startsWith("flagport_")) expect(family.help, family.name).toBeTruthy()
  })

  it("the Grafana dashboard is valid JSON whose panels query documented series", () => {
    const dashboard = JSON.parse(readFileSync(new URL("../../docs/operations/grafana-dashboard.json", import.meta.url), "utf8")) as {
      panels: Array<{ targets: Array<{ expr: string }> }>
    }
    const queried = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => t.expr.match(/\b(flagport|nodejs|process)_[a-z0-9_]+/g) ?? [])))
    expect(queried.size).toBeGreaterThan(10)
    for (const name of queried) expect(DOCUMENTED.includes(name.replace(/_(bucket|sum|count)$/, "")) || name.startsWith("nodejs_eventloop_lag_"), name).toBe(true)
  })

  it("requests by route template and status on both lanes, evaluations by reason, snapshot reloads", async () => {
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "f", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    for (let i = 0; i < 3; i++) {
      expect((await request(t.url, "POST", "/v1/evaluate", { key: t.keys.scoped, body: { environment: "development", context: { key: `u${i}` } } })).status).toBe(200)
    }
    expect((await request(t.url, "GET", "/v1/flags/f/eval?environment=development&key=u1", { key: t.keys.scoped })).status).toBe(200)
    expect((await request(t.url, "GET", "/v1/flags/missing/eval?environment=development&key=u1", { key: t.keys.scoped })).status).toBe(404)
    const after = await scrape(t.url)
    const count = (families: ReadonlyMap<string, Family>, labels: Record<string, string>) => sumOf(families, "flagport_http_requests_total", labels)
    expect(count(after, { method: "POST", route: "/v1/evaluate", status: "200" }) - count(before, { method: "POST", route: "/v1/evaluate", status: "200" })).toBe(3)
    expect(count(after, { method: "GET", route: "/v1/flags/:flagKey/eval", status: "200" })).toBe(1)
    expect(count(after, { method: "GET", route: "/v1/flags/:flagKey/eval", status: "404" })).toBe(1)
    expect(count(after, { method: "POST", route: "/v1/projects/:projectId/flags", status: "201" })).toBe(1)
    // The histogram counts the same requests.
    expect(
      valueOf(after, "flagport_http_request_duration_seconds_count", { method: "POST", route: "/v1/evaluate", status: "200" }, "flagport_http_request_duration_seconds")
    ).toBe(count(after, { method: "POST", route: "/v1/evaluate", status: "200" }))
    // One flag evaluated four times (three bulk, one single), all by its fallthrough... or off: a new flag's reason.
    expect(sumOf(after, "flagport_evaluations_total", { project: "p1", environment: "development" })).toBe(4)
    expect(sumOf(after, "flagport_snapshot_reloads_total", { outcome: "ok" })).toBeGreaterThan(sumOf(before, "flagport_snapshot_reloads_total", { outcome: "ok" }))
    expect(sumOf(after, "flagport_snapshot_reload_duration_seconds_count", {}, "flagport_snapshot_reload_duration_seconds")).toBeGreaterThan(0)
    // No raw path in any label.
    for (const sample of after.get("flagport_http_requests_total")!.samples) expect(sample.labels.route).not.toContain("missing")
  })

  it("a stream raises open streams, and closing it lowers them", async () => {
    const opened = await openStream(t.url, "/v1/stream?environment=development", { authorization: `Bearer ${t.keys.scoped}` })
    try {
      expect(opened.status).toBe(200)
      expect(valueOf(await scrape(t.url), "flagport_streams_open")).toBe(1)
    } finally {
      opened.close()
    }
    await vi.waitFor(async () => expect(valueOf(await scrape(t.url), "flagport_streams_open")).toBe(0))
  })

  it("a failing webhook raises the failed deliveries and the backlog", async () => {
    const receiver = await failingReceiver()
    expect((await admin("POST", "/v1/projects/p1/webhooks", { url: receiver.url, events: ["flag.created"] })).status).toBe(201)
    const failuresBefore = sumOf(await scrape(t.url), "flagport_webhook_deliveries_total", { outcome: "retrying" })
    expect((await admin("POST", "/v1/projects/p1/flags", { key: "g", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    await vi.waitFor(() => expect(receiver.hits()).toBeGreaterThan(0), { timeout: 10_000 })
    await vi.waitFor(async () => {
      const families = await scrape(t.url)
      expect(sumOf(families, "flagport_webhook_deliveries_total", { outcome: "retrying" })).toBeGreaterThan(failuresBefore)
      expect(valueOf(families, "flagport_webhook_backlog", { stage: "delivery" })).toBe(1)
      expect(valueOf(families, "flagport_webhook_backlog_oldest_age_seconds", { stage: "delivery" })).toBeGreaterThanOrEqual(0)
    }, { timeout: 10_000 })
  })

  it("refused sign-ins are counted", async () => {
    const before = sumOf(await scrape(t.url), "flagport_signin_failures_total")
    const reply = await request(t.url, "POST", "/v1/auth/login", { body: { email: "nobody@example.com", password: "hunter2-secret-pw" } })
    expect(reply.status).toBe(401)
    expect(sumOf(await scrape(t.url), "flagport_signin_failures_total", { reason: "invalid_credentials" })).toBe(before + 1)
  })

  it("exposures are counted by outcome", async () => {
    const families = await scrape(t.url)
    const before = (outcome: string) => sumOf(families, "flagport_exposures_total", { outcome })
    const [dropped, refused] = [before("dropped"), before("refused")]
    const item = (timestamp: string) => ({ flagKey: "f", variationKey: "on", ruleId: "r", unit: "u1", timestamp })
    const body = (timestamp: string) => ({ projectId: "p1", environment: "development", exposures: [item(timestamp), item(timestamp)] })
    expect((await request(t.url, "POST", "/v1/exposures", { key: t.keys.global, body: body(new Date().toISOString()) })).status).toBe(202)
    expect((await request(t.url, "POST", "/v1/exposures", { key: t.keys.global, body: body("2020-01-01T00:00:00Z") })).status).toBe(400)
    const after = await scrape(t.url)
    expect(sumOf(after, "flagport_exposures_total", { outcome: "dropped" })).toBe(dropped + 2)
    expect(sumOf(after, "flagport_exposures_total", { outcome: "refused" })).toBe(refused + 2)
  })

  it("metric events are counted by outcome, in the same table as exposures", async () => {
    const families = await scrape(t.url)
    const before = (outcome: string) => sumOf(families, "flagport_metric_events_total", { outcome })
    const [dropped, refused] = [before("dropped"), before("refused")]
    const body = (value: number) => ({ projectId: "p1", environment: "development", events: [{ event: "nothing-measures-this", unit: "u1", value }, { event: "nor-this", unit: "u2" }] })
    expect((await request(t.url, "POST", "/v1/track", { key: t.keys.global, body: body(1) })).status).toBe(202)
    expect((await request(t.url, "POST", "/v1/track", { key: t.keys.global, body: { ...body(1), events: [{ event: "e", unit: "u", timestamp: "2020-01-01T00:00:00Z" }] } })).status).toBe(400)
    const after = await scrape(t.url)
    expect(sumOf(after, "flagport_metric_events_total", { outcome: "dropped" })).toBe(dropped + 2)
    expect(sumOf(after, "flagport_metric_events_total", { outcome: "refused" })).toBe(refused + 1)
  })

  it("1,000 distinct unknown paths add no series", async () => {
    await request(t.url, "GET", "/no/such/path/0")
    await request(t.url, "GET", "/v1/projects/p1/no-such-thing/0")
    const firstFamilies = await scrape(t.url)
    // Flagport's own series: prom-client's GC histogram gains a series per GC kind as they first run.
    const first = seriesCount(firstFamilies, "flagport_")
    for (let i = 1; i <= 500; i++) {
      await request(t.url, "GET", `/no/such/path/${i}-${Math.random().toString(36).slice(2)}`)
      await request(t.url, "GET", `/v1/projects/p1/no-such-thing/${i}`)
    }
    const families = await scrape(t.url)
    // The scrape itself is a request: its own series existed already after the first scrape.
    const routes = (f: ReadonlyMap<string, Family>) => new Set(f.get("flagport_http_requests_total")!.samples.map((s) => `${s.labels.method} ${s.labels.route} ${s.labels.status}`))
    expect(routes(families)).toEqual(routes(firstFamilies))
    expect(seriesCount(families, "flagport_")).toBe(first)
    expect(sumOf(families, "flagport_http_requests_total", { route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(1002)
  }, 60_000)

  it("request lines: one JSON line per request with its fields, and no key, cookie or password", async () => {
    lines.length = 0
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    await request(t.url, "GET", "/v1/projects/p1/flags/f?token=query-secret", {
      key: t.keys.global,
      headers: { cookie: "flagport_session=cookie-secret", traceparent: `00-${traceId}-00f067aa0ba902b7-01`, "x-request-id": "req-42" }
    })
    await request(t.url, "POST", "/v1/auth/login", { body: { email: "a@example.com", password: "password-secret" }, headers: { cookie: "flagport_session=cookie-secret" } })
    await request(t.url, "POST", "/v1/evaluate", { key: t.keys.scoped, body: { environment: "development", context: { key: "u" } } })
    await vi.waitFor(() => expect(lines.length).toBe(3))
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(parsed[0]).toMatchObject({ level: "INFO", message: "request", method: "GET", route: "/v1/projects/:projectId/flags/:flagKey", status: 200, requestId: "req-42", traceId })
    expect(parsed[1]).toMatchObject({ method: "POST", route: "/v1/auth/login", status: 401 })
    expect(parsed[2]).toMatchObject({ method: "POST", route: "/v1/evaluate", status: 200 })
    for (const line of parsed) {
      expect(typeof line.durationMs).toBe("number")
      expect(typeof line.requestId).toBe("string")
      expect(typeof line.timestamp).toBe("string")
    }
    expect(parsed[1]!.traceId).toBeUndefined()
    const all = lines.join("\n")
    for (const secret of [t.keys.global, t.keys.scoped, "cookie-secret", "password-secret", "query-secret", "a@example.com"]) expect(all).not.toContain(secret)
  })
})

describe("/metrics modes", () => {
  it("off unless switched on: /metrics is then an unknown route", async () => {
    const t = await serve({ metrics: { enabled: false, port: Option.none(), token: Option.none() } })
    expect((await fetch(`${t.url}/metrics`)).status).toBe(404)
  })

  it("on the API's port without a token: the start refuses, naming the setting (the labels list every project and environment)", async () => {
    await expect(serve({ metrics: { ...ON, token: Option.none() } })).rejects.toThrow(METRICS_TOKEN_REQUIRED)
    const read = (env: Record<string, string>) => Effect.runPromise(Effect.either(Effect.withConfigProvider(metricsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))
    const refused = await read({ FLAGPORT_METRICS: "on" })
    expect(Either.isLeft(refused) && String(refused.left)).toContain("FLAGPORT_METRICS_TOKEN")
    expect(Either.isRight(await read({ FLAGPORT_METRICS: "on", FLAGPORT_METRICS_TOKEN: "t" }))).toBe(true)
    expect(await read({ FLAGPORT_METRICS: "on", FLAGPORT_METRICS_PORT: "9464" })).toEqual(
      Either.right({ enabled: true, port: Option.some(9464), host: "127.0.0.1", token: Option.none() })
    )
    expect(Either.isRight(await read({}))).toBe(true)
  })

  it("a bearer token: refused without it, with another scheme or another token", async () => {
    const t = await serve({ metrics: ON })
    expect((await fetch(`${t.url}/metrics`)).status).toBe(401)
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: "Basic scrape-token" } })).status).toBe(401)
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: "XXXXXX scrape-token" } })).status).toBe(401)
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: "Bearer other-token" } })).status).toBe(401)
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${t.keys.global}` } })).status).toBe(401)
    const families = await scrape(t.url, { authorization: "Bearer scrape-token" })
    expect(families.has("flagport_http_requests_total")).toBe(true)
  })

  it("a port of its own: served there (no token needed), not on the API's port", async () => {
    const t = await serve({ metrics: { ...ON, port: Option.some(0), token: Option.none() } })
    const metricsUrl = t.server.metricsUrl!
    expect(metricsUrl).toBeDefined()
    expect((await fetch(`${t.url}/metrics`)).status).toBe(404)
    expect((await fetch(`${metricsUrl}/elsewhere`)).status).toBe(404)
    await request(t.url, "POST", "/v1/evaluate", { key: t.keys.scoped, body: { environment: "development", context: { key: "u" } } })
    const families = await scrape(metricsUrl, {})
    expect(sumOf(families, "flagport_http_requests_total", { route: "/v1/evaluate", status: "200" })).toBe(1)
  })

  it("a port of its own listens on loopback, whatever interface the API listens on, unless told another", async () => {
    const storage = StorageLayer.memoryStorage
    const onEvery = await startStandalone({ storage, host: "0.0.0.0", port: 0, webhooks: false, schedules: false, dashboard: false, oidc: Option.none(), metrics: { ...ON, port: Option.some(0), token: Option.none() } })
    closers.push(onEvery.close)
    expect(onEvery.host).toBe("0.0.0.0")
    expect(new URL(onEvery.metricsUrl!).hostname).toBe("127.0.0.1")
    const told = await startStandalone({ storage, host: "127.0.0.1", port: 0, webhooks: false, schedules: false, dashboard: false, oidc: Option.none(), metrics: { ...ON, port: Option.some(0), host: "0.0.0.0" } })
    closers.push(told.close)
    expect(new URL(told.metricsUrl!).hostname).toBe("0.0.0.0")
  })
})

describe("mounted handlers (flagport/http)", () => {
  it("refuse to serve /metrics on the host's port without a token; serve: false leaves it to the host", async () => {
    const services = App.servicesFrom(StorageLayer.memoryStorage)
    await expect(makeHandlers({ services, dashboard: false, metrics: { registry: new ServerMetrics() } })).rejects.toThrow(/needs a token/)
    const handlers = await makeHandlers({ services, dashboard: false, metrics: { registry: new ServerMetrics(), serve: false } })
    await handlers.dispose()
  })

  it("measure nothing unless given a registry; with one, both handlers count and the node handler serves /metrics under the prefix", async () => {
    const registry = new ServerMetrics()
    const lines: Array<string> = []
    const handlers = await makeHandlers({
      prefix: "/flags",
      services: App.servicesFrom(StorageLayer.memoryStorage),
      dashboard: false,
      metrics: { registry, token: Option.some(Redacted.make(TOKEN)) },
      requestLog: (line) => lines.push(line)
    })
    const host: Server = createServer((req, res) => handlers.node(req, res))
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
    try {
      const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}/flags`
      expect((await handlers.web(new Request("http://x/flags/health"))).status).toBe(200)
      expect((await fetch(`${base}/v1/projects/p9/flags`)).status).toBe(401)
      const families = await scrape(base)
      expect(valueOf(families, "flagport_http_requests_total", { method: "GET", route: "/health", status: "200" })).toBe(1)
      expect(valueOf(families, "flagport_http_requests_total", { method: "GET", route: "/v1/projects/:projectId/flags", status: "401" })).toBe(1)
      await vi.waitFor(() => expect(lines.map((line) => (JSON.parse(line) as { route: string }).route)).toEqual(["/health", "/v1/projects/:projectId/flags", "/metrics"]))
    } finally {
      await new Promise<void>((resolve) => host.close(() => resolve()))
      await handlers.dispose()
    }
  })
})
