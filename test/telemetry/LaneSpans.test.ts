/**
 * The lane spans' worker (LaneSpans.ts) against an OTLP/HTTP receiver: it exports what the event
 * loop recorded, through the library's transport (OTEL_EXPORTER_OTLP_HEADERS sent), in exports of
 * at most OTEL_BSP_MAX_EXPORT_BATCH_SIZE spans; `close` flushes; and past its bound it drops and
 * counts, never holding more than the bound.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { startTestLane } from "./lane.js"
import { attribute, listen, spansOf } from "./otlp.js"

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  delete process.env.OTEL_EXPORTER_OTLP_HEADERS
})

const traceId = (n: number) => n.toString(16).padStart(32, "0")
const traceparent = (n: number) => `00-${traceId(n)}-00f067aa0ba902b7-01`

describe("lane spans' worker", () => {
  it("exports every span in batches with the configured headers, and close flushes", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    process.env.OTEL_EXPORTER_OTLP_HEADERS = "x-collector-token=secret-1"
    const { lane, route } = await startTestLane(`${collector.url}/v1/traces`, { maxExportBatchSize: 100, scheduledDelayMillis: 60_000 })
    for (let n = 1; n <= 450; n++) lane.start(route, traceparent(n))!.end(n % 2 === 0 ? 200 : 500)
    await lane.close()
    expect(lane.dropped()).toBe(0)
    expect(collector.received.map((r) => r.headers["x-collector-token"])).toEqual(collector.received.map(() => "secret-1"))
    const sizes = collector.received.map((r) => spansOf([r]).length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100)
    const spans = spansOf(collector.received)
    expect(spans.map((s) => s.traceId).sort()).toEqual(Array.from({ length: 450 }, (_, i) => traceId(i + 1)).sort())
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(450)
  })

  it("starts a span only under a well-formed traceparent the sampler keeps, with the header's ids", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    const { lane, route } = await startTestLane(`${collector.url}/v1/traces`)
    const trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    expect(lane.start(route, "not a traceparent")).toBeUndefined()
    expect(lane.start(route, `00-${trace.toUpperCase()}-00f067aa0ba902b7-01`)).toBeUndefined()
    expect(lane.start(route, `00-${"0".repeat(32)}-00f067aa0ba902b7-01`)).toBeUndefined()
    expect(lane.start(route, `00-${trace}-00f067aa0ba902b7-01`, () => false)).toBeUndefined()
    const asked: Array<[string, boolean]> = []
    const span = lane.start(route, ` 00-${trace}-00f067aa0ba902b7-00 `, (traceId, parentSampled) => asked.push([traceId, parentSampled]) > 0)
    expect(asked).toEqual([[trace, false]])
    span!.end(204)
    span!.end(500) // ended once
    await lane.close()
    const spans = spansOf(collector.received)
    expect(spans.map((s) => [s.traceId, s.parentSpanId, s.name])).toEqual([[trace, "00f067aa0ba902b7", "GET /v1/config"]])
    expect(attribute(spans[0]!, "http.response.status_code")).toBe(204)
  })

  it("drops and counts what does not fit its queue", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    const { lane, route } = await startTestLane(`${collector.url}/v1/traces`, { protocol: "http/protobuf", batchSize: 10, maxQueueSize: 50, maxExportBatchSize: 50, scheduledDelayMillis: 60_000 })
    // All in one turn, far faster than exports of 50 spans go out one at a time: the worker (on its
    // own thread) takes some while the loop runs, so how many are dropped varies; that each span is
    // either exported or counted as dropped does not.
    for (let n = 1; n <= 2000; n++) lane.start(route, traceparent(n))!.end(200)
    await lane.close()
    const dropped = lane.dropped()
    expect(dropped).toBeGreaterThan(0)
    // Each exported span names its route once.
    const name = Buffer.from("GET /v1/config")
    const count = (body: Buffer) => {
      let n = 0
      for (let at = body.indexOf(name); at !== -1; at = body.indexOf(name, at + 1)) n++
      return n
    }
    const exported = collector.received.reduce((n, r) => n + count(r.body), 0)
    expect(exported).toBeGreaterThanOrEqual(50)
    expect(exported + dropped).toBe(2000)
  })

  it("with a queue bound under its batch size, exports up to the bound", async () => {
    const collector = await listen()
    cleanups.push(collector.close)
    const { lane, route } = await startTestLane(`${collector.url}/v1/traces`, { maxQueueSize: 40 })
    // 100 in one turn: one bound's worth goes, the rest is dropped (a batch larger than the bound would have been dropped whole).
    for (let n = 1; n <= 100; n++) lane.start(route, traceparent(n))!.end(200)
    await lane.close()
    const exported = spansOf(collector.received).length
    expect(exported).toBeGreaterThanOrEqual(40)
    expect(exported + lane.dropped()).toBe(100)
  })

  it("closing gives up on a collector that does not answer, after its timeout", async () => {
    const silent = createServer(() => undefined) // takes the request, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    cleanups.push(() => new Promise<void>((resolve) => {
      silent.closeAllConnections()
      silent.close(() => resolve())
    }))
    const { lane, route } = await startTestLane(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/traces`, { protocol: "http/protobuf" })
    lane.start(route, traceparent(1))!.end(200)
    const started = Date.now()
    await lane.close(300)
    expect(Date.now() - started).toBeLessThan(3_000)
  })
})
