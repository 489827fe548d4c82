/**
 * Traces (issue 29): a real server with the OTEL_* variables set exports to an OTLP/HTTP receiver
 * started here. A targeting write under an incoming `traceparent` is one trace: the request's
 * span (child of the caller's), the use case under it, the SQL statements under that; a webhook
 * delivery carries a `traceparent` naming its send span; the evaluation lane traces a request
 * that carries one. With http/protobuf, the requests arrive with the protobuf content type.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { spanNameOf } from "../../adapters/http/serving/SpanNames.js"
import { request, startServer } from "../http/fixtures.js"
import { attribute, listen, type OtlpExport, type OtlpSpan, spansOf } from "./otlp.js"

const OTEL_VARIABLES = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_SERVICE_NAME", "OTEL_TRACES_SAMPLER"] as const
const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  for (const name of OTEL_VARIABLES) delete process.env[name]
})

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
const CALLER_SPAN = "00f067aa0ba902b7"
const LANE_TRACE_ID = "0af7651916cd43dd8448eb211c80319c"

const waitFor = async (check: () => boolean, what: string, ms = 15_000) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe("traces over OTLP/HTTP", () => {
  it("http/json: a targeting write is one trace (request > use case > SQL) under the caller's traceparent; webhooks and the lane carry it on", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    const hooks = await listen(204)
    cleanups.push(hooks.close)
    const dir = mkdtempSync(join(tmpdir(), "flagport-traces-"))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json"
    process.env.OTEL_SERVICE_NAME = "flagport-under-test"

    const t = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${join(dir, "flagport.db")}`), { webhooks: true })
    let closed = false
    cleanups.push(() => (closed ? undefined : t.close()))
    const admin = { key: t.keys.global }
    const created = await request(t.url, "POST", "/v1/projects/p1/flags", {
      ...admin,
      body: { key: "traced", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    expect(created.status).toBe(201)
    const hook = await request(t.url, "POST", "/v1/projects/p1/webhooks", { ...admin, body: { url: `${hooks.url}/hook`, events: ["targeting.updated"] } })
    expect(hook.status).toBe(201)

    const put = await request(t.url, "PUT", "/v1/projects/p1/flags/traced/targeting", {
      ...admin,
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      body: { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
    })
    expect(put.status).toBe(200)
    const evaluated = await request(t.url, "POST", "/v1/evaluate", {
      key: t.keys.scoped,
      headers: { traceparent: `00-${LANE_TRACE_ID}-${CALLER_SPAN}-01` },
      body: { environment: "production", context: { key: "u" } }
    })
    expect(evaluated.status).toBe(200)
    // An evaluation without a traceparent is not traced (LaneTracing.ts).
    expect((await request(t.url, "POST", "/v1/evaluate", { key: t.keys.scoped, body: { environment: "production", context: { key: "u" } } })).status).toBe(200)
    await waitFor(() => hooks.received.length > 0, "the webhook delivery")
    // The receiver has the request before the dispatcher has its answer: closing now could end the
    // send span before its status is known, so wait until the delivery log says it succeeded.
    const webhookId = (hook.body as { id: string }).id
    let succeeded = false
    const deadline = Date.now() + 15_000
    while (!succeeded && Date.now() < deadline) {
      const deliveries = await request(t.url, "GET", `/v1/projects/p1/webhooks/${webhookId}/deliveries`, admin)
      succeeded = (deliveries.body as { data: Array<{ status: string }> }).data.some((d) => d.status === "succeeded")
      if (!succeeded) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(succeeded).toBe(true)

    await t.close() // flushes the batch span processor
    closed = true
    expect(collector.received.length).toBeGreaterThan(0)
    for (const r of collector.received) {
      expect(r.path).toBe("/v1/traces")
      expect(r.contentType).toBe("application/json")
    }
    const resource = (JSON.parse(collector.received[0]!.body.toString("utf8")) as OtlpExport).resourceSpans[0]!.resource
    expect(resource.attributes.find((a) => a.key === "service.name")?.value.stringValue).toBe("flagport-under-test")

    const spans = spansOf(collector.received)
    const byId = new Map(spans.map((s) => [s.spanId, s]))
    const inTrace = spans.filter((s) => s.traceId === TRACE_ID)
    const ancestors = (span: OtlpSpan): ReadonlyArray<OtlpSpan> => {
      const parent = span.parentSpanId === undefined || span.parentSpanId === "" ? undefined : byId.get(span.parentSpanId)
      return parent === undefined ? [] : [parent, ...ancestors(parent)]
    }

    // The request: a server span, child of the caller's span, naming its route template, status and project.
    const requests = inTrace.filter((s) => s.kind === 2)
    expect(requests).toHaveLength(1)
    const requestSpan = requests[0]!
    expect(requestSpan.parentSpanId).toBe(CALLER_SPAN)
    expect(requestSpan.name).toBe("PUT /v1/projects/:projectId/flags/:flagKey/targeting")
    expect(attribute(requestSpan, "http.route")).toBe("/v1/projects/:projectId/flags/:flagKey/targeting")
    expect(attribute(requestSpan, "http.request.method")).toBe("PUT")
    expect(attribute(requestSpan, "http.response.status_code")).toBe(200)
    expect(attribute(requestSpan, "flagport.project.id")).toBe("p1")
    expect(attribute(requestSpan, "http.request.header.authorization")).not.toContain(t.keys.global.slice(4))

    // The use case, under the request.
    const useCase = inTrace.find((s) => s.name === "Flags.replaceTargeting")
    expect(useCase).toBeDefined()
    expect(ancestors(useCase!).map((s) => s.spanId)).toContain(requestSpan.spanId)

    // SQL statements, under the use case, in the same trace.
    const statements = inTrace.filter((s) => s.name === "sql.execute")
    expect(statements.length).toBeGreaterThan(0)
    const underUseCase = statements.filter((s) => ancestors(s).some((a) => a.spanId === useCase!.spanId))
    expect(underUseCase.length).toBeGreaterThan(0)
    expect(attribute(underUseCase[0]!, "db.system.name")).toBe("sqlite")
    // Every span of the trace hangs from the request span (one tree, nothing orphaned).
    for (const span of inTrace.filter((s) => s !== requestSpan)) expect(ancestors(span).map((s) => s.spanId)).toContain(requestSpan.spanId)

    // The webhook delivery carries a traceparent naming its send span.
    const delivered = hooks.received[0]!
    const traceparent = delivered.headers.traceparent
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
    const [, sendTrace, sendSpanId] = (traceparent as string).split("-")
    const send = byId.get(sendSpanId!)
    expect(send?.name).toBe("WebhookHttp.send")
    expect(send?.traceId).toBe(sendTrace)
    expect(send?.kind).toBe(3) // client
    expect(attribute(send!, "http.response.status_code")).toBe(204)
    // Each send is a trace of its own; the dispatcher's and the scheduler's polling rounds are not traced.
    const delivery = byId.get(send!.parentSpanId!)
    expect(delivery?.name).toBe("WebhookDispatcher.send")
    expect(delivery?.parentSpanId ?? "").toBe("")
    expect(attribute(delivery!, "flagport.project.id")).toBe("p1")
    expect(spans.filter((s) => s.name === "WebhookDispatcher.round" || s.name === "Scheduler.tick")).toEqual([])
    expect(spans.filter((s) => s.parentSpanId !== undefined && s.parentSpanId !== "" && !byId.has(s.parentSpanId) && s.parentSpanId !== CALLER_SPAN)).toEqual([])

    // The lane traced the evaluation that carried a traceparent, and only that one.
    const lane = spans.filter((s) => s.name === "POST /v1/evaluate")
    expect(lane).toHaveLength(1)
    expect(lane[0]!.traceId).toBe(LANE_TRACE_ID)
    expect(lane[0]!.parentSpanId).toBe(CALLER_SPAN)
    expect(attribute(lane[0]!, "http.route")).toBe("/v1/evaluate")
    expect(attribute(lane[0]!, "http.response.status_code")).toBe(200)
    // Exported off the event loop (LaneSpans.ts), under the same Resource and scope as the other spans.
    const exported = collector.received.flatMap((r) => (JSON.parse(r.body.toString("utf8")) as OtlpExport).resourceSpans)
    const holding = (span: OtlpSpan) => exported.find((rs) => rs.scopeSpans.some((ss) => ss.spans.some((s) => s.spanId === span.spanId)))!
    const scopeOf = (span: OtlpSpan) => holding(span).scopeSpans.find((ss) => ss.spans.some((s) => s.spanId === span.spanId))!.scope
    expect(holding(lane[0]!).resource).toEqual(holding(requestSpan).resource)
    expect(scopeOf(lane[0]!)).toEqual(scopeOf(requestSpan))
    expect(scopeOf(lane[0]!)?.name).toBe("flagport-under-test")
  })

  it("http/protobuf (the default protocol): the spans arrive at /v1/traces as protobuf", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `${collector.url}/`
    const t = await startServer()
    await request(t.url, "GET", "/v1/projects", { key: t.keys.global, headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` } })
    // A lane request: its span is encoded by LaneSpanCodec.ts (the same bytes as the library's, LaneSpanCodec.test.ts).
    const evaluated = await request(t.url, "POST", "/v1/evaluate", {
      key: t.keys.scoped,
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      body: { environment: "production", context: { key: "u" } }
    })
    expect(evaluated.status).toBe(200)
    await t.close()
    expect(collector.received.length).toBeGreaterThan(0)
    for (const r of collector.received) {
      expect(r.path).toBe("/v1/traces")
      expect(r.contentType).toBe("application/x-protobuf")
      // The trace id's bytes are in the message.
      expect(r.body.includes(Buffer.from(TRACE_ID, "hex"))).toBe(true)
    }
    expect(collector.received.filter((r) => r.body.includes(Buffer.from("POST /v1/evaluate")))).toHaveLength(1)
  })

  it("without OTEL_EXPORTER_OTLP_ENDPOINT nothing is exported and webhooks carry no traceparent", async () => {
    const hooks = await listen(204)
    cleanups.push(hooks.close)
    const t = await startServer(StorageLayer.memoryStorage, { webhooks: true })
    cleanups.push(() => t.close())
    const admin = { key: t.keys.global }
    await request(t.url, "POST", "/v1/projects/p1/flags", {
      ...admin,
      body: { key: "plain", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    await request(t.url, "POST", "/v1/projects/p1/webhooks", { ...admin, body: { url: `${hooks.url}/hook`, events: ["targeting.updated"] } })
    await request(t.url, "PUT", "/v1/projects/p1/flags/plain/targeting", {
      ...admin,
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      body: { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
    })
    await waitFor(() => hooks.received.length > 0, "the webhook delivery")
    expect(hooks.received[0]!.headers.traceparent).toBeUndefined()
  })
})

describe("request span names", () => {
  it("are the method and the route template (RouteTemplate.ts); undeclared paths keep the platform's name", () => {
    expect(spanNameOf("PUT", "/v1/projects/p1/flags/checkout/targeting")).toBe("PUT /v1/projects/:projectId/flags/:flagKey/targeting")
    expect(spanNameOf("GET", "/v1/projects?limit=5")).toBe("GET /v1/projects")
    expect(spanNameOf("HEAD", "/v1/projects/p1/flags")).toBe("HEAD /v1/projects/:projectId/flags")
    expect(spanNameOf("GET", "/v1/projects//flags")).toBe("http.server GET")
    expect(spanNameOf("GET", "/nowhere")).toBe("http.server GET")
  })
})
