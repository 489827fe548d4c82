/**
 * A webhook send linked to the write that caused it, across processes: server A (no dispatcher)
 * takes a targeting write under a caller's `traceparent`; its outbox event keeps the write's trace.
 * A is closed; server B, over the same SQLite file, sends the webhook. Both export to one OTLP/HTTP
 * receiver: B's `WebhookDispatcher.send` is the root of a trace of its own with a link to A's
 * request span, and the receiver gets a `traceparent` naming B's client span, in that trace.
 * A write that was not traced leaves no link, and without tracing nothing is kept.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { listen, type OtlpSpan, spansOf } from "./otlp.js"
import * as Effect from "effect/Effect"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  delete process.env.OTEL_EXPORTER_OTLP_PROTOCOL
})

const TRACE_ID = "5bf92f3577b34da6a3ce929d0e0e4737"
const CALLER_SPAN = "10f067aa0ba902b8"

const waitFor = async (check: () => boolean, what: string, ms = 15_000) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const flagBody = (key: string) => ({ key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
const targeting = { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }

const sqliteFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-trace-link-"))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, "flagport.db")
}

describe("a webhook send linked to its write", () => {
  it("across processes: the send, in a trace of its own, links to the request span of the write; the receiver joins the send's trace", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    const hooks = await listen(204)
    cleanups.push(hooks.close)
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json"
    const file = sqliteFile()

    // Server A: the write, no dispatcher.
    const a = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${file}`), { webhooks: false })
    let aClosed = false
    cleanups.push(() => (aClosed ? undefined : a.close()))
    const admin = { key: a.keys.global }
    expect((await request(a.url, "POST", "/v1/projects/p1/flags", { ...admin, body: flagBody("linked") })).status).toBe(201)
    expect((await request(a.url, "POST", "/v1/projects/p1/webhooks", { ...admin, body: { url: `${hooks.url}/hook`, events: ["targeting.updated"] } })).status).toBe(201)
    const put = await request(a.url, "PUT", "/v1/projects/p1/flags/linked/targeting", {
      ...admin,
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      body: targeting
    })
    expect(put.status).toBe(200)
    // The outbox event keeps the write's trace: the request span, child of the caller's.
    const kept = await a.run(Effect.flatMap(EventOutbox, (outbox) => outbox.list("p1")))
    const event = kept.find((entry) => entry.event.type === "targeting.updated")!
    expect(event.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`))
    await a.close()
    aClosed = true
    expect(hooks.received).toHaveLength(0)

    // Server B, later, over the same database: it sends.
    const b: TestServer = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${file}`), { webhooks: true, seeded: a.keys })
    let bClosed = false
    cleanups.push(() => (bClosed ? undefined : b.close()))
    await waitFor(() => hooks.received.length > 0, "the webhook delivery")
    await b.close()
    bClosed = true

    const spans = spansOf(collector.received)
    const byId = new Map(spans.map((s) => [s.spanId, s]))
    const requestSpan = spans.find((s) => s.traceId === TRACE_ID && s.name === "PUT /v1/projects/:projectId/flags/:flagKey/targeting")!
    expect(requestSpan.parentSpanId).toBe(CALLER_SPAN)
    expect(event.traceparent).toBe(`00-${TRACE_ID}-${requestSpan.spanId}-01`)

    const sends = spans.filter((s) => s.name === "WebhookDispatcher.send")
    expect(sends).toHaveLength(1)
    const send: OtlpSpan = sends[0]!
    expect(send.parentSpanId ?? "").toBe("")
    expect(send.traceId).not.toBe(TRACE_ID)
    expect(send.links?.map((l) => ({ traceId: l.traceId, spanId: l.spanId }))).toEqual([{ traceId: TRACE_ID, spanId: requestSpan.spanId }])

    // The receiver's traceparent names the client span under the send: it joins the send's trace.
    const traceparent = hooks.received[0]!.headers.traceparent as string
    const [, trace, span] = traceparent.split("-")
    expect(trace).toBe(send.traceId)
    expect(byId.get(span!)?.name).toBe("WebhookHttp.send")
    expect(byId.get(span!)?.parentSpanId).toBe(send.spanId)
  }, 60_000)

  it("a write without a traceparent is linked too (its own request span); a redelivery links to the redelivery request", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    const hooks = await listen(204)
    cleanups.push(hooks.close)
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json"
    const t = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${sqliteFile()}`), { webhooks: true })
    let closed = false
    cleanups.push(() => (closed ? undefined : t.close()))
    const admin = { key: t.keys.global }
    const hook = await request(t.url, "POST", "/v1/projects/p1/webhooks", { ...admin, body: { url: `${hooks.url}/hook`, events: ["flag.created"] } })
    expect(hook.status).toBe(201)
    const webhookId = (hook.body as { id: string }).id
    expect((await request(t.url, "POST", "/v1/projects/p1/flags", { ...admin, body: flagBody("untraced-caller") })).status).toBe(201)
    await waitFor(() => hooks.received.length === 1, "the first delivery")
    const deliveries = await request(t.url, "GET", `/v1/projects/p1/webhooks/${webhookId}/deliveries`, admin)
    const first = (deliveries.body as { data: Array<{ id: string }> }).data[0]!
    const redelivered = await request(t.url, "POST", `/v1/projects/p1/webhooks/${webhookId}/deliveries/${first.id}/redeliver`, admin)
    expect(redelivered.status).toBe(201)
    await waitFor(() => hooks.received.length === 2, "the redelivery")
    await t.close()
    closed = true

    const spans = spansOf(collector.received)
    const byId = new Map(spans.map((s) => [s.spanId, s]))
    const sends = spans.filter((s) => s.name === "WebhookDispatcher.send")
    expect(sends).toHaveLength(2)
    const linked = sends.map((s) => byId.get(s.links?.[0]?.spanId ?? "")?.name)
    expect(linked.sort()).toEqual([
      "POST /v1/projects/:projectId/flags",
      "POST /v1/projects/:projectId/webhooks/:webhookId/deliveries/:deliveryId/redeliver"
    ])
    for (const send of sends) expect(send.links![0]!.traceId).not.toBe(send.traceId)
  }, 60_000)

  it("without tracing, the outbox keeps no trace", async () => {
    const t = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${sqliteFile()}`), { webhooks: false })
    cleanups.push(() => t.close())
    const admin = { key: t.keys.global }
    await request(t.url, "POST", "/v1/projects/p1/webhooks", { ...admin, body: { url: "http://127.0.0.1:9/hook", events: ["flag.created"] } })
    const created = await request(t.url, "POST", "/v1/projects/p1/flags", {
      ...admin,
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      body: flagBody("plain")
    })
    expect(created.status).toBe(201)
    const kept = await t.run(Effect.flatMap(EventOutbox, (outbox) => outbox.list("p1")))
    expect(kept.length).toBeGreaterThan(0)
    for (const entry of kept) expect(entry.traceparent).toBeNull()
  })
})
