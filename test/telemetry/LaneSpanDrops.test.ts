/**
 * What an operator sees when the evaluation lane's spans are dropped, through a real server with
 * tracing on (OTEL_* variables), a queue of 2 (OTEL_BSP_MAX_QUEUE_SIZE) and a collector that holds
 * every export until the test lets it answer: /metrics (parsed strictly) counts the drops in
 * `flagport_trace_lane_spans_dropped_total`; the SDK's warning reaches the server's JSON log at
 * OTEL_LOG_LEVEL=warn and not at error; a bad OTEL_LOG_LEVEL stops the start, naming the variable.
 * And the lane's worker reports an export the collector refuses through `diag`, as the SDK does.
 */
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as OtelApi from "@opentelemetry/api"
import { afterEach, describe, expect, it, vi } from "@effect/vitest"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { parsePrometheusText, valueOf } from "../fixtures/PromText.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { startTestLane } from "./lane.js"
import { listen } from "./otlp.js"

/** /metrics on the API's port, behind its token (required there). */
const ON = { enabled: true, port: Option.none(), token: Option.some(Redacted.make("scrape-token")) } as const
const SCRAPE = { headers: { authorization: "Bearer scrape-token" } }
const DROPPED = "flagport_trace_lane_spans_dropped_total"
const VARIABLES = [
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_BSP_MAX_QUEUE_SIZE",
  "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
  "OTEL_LOG_LEVEL"
] as const

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  for (const name of VARIABLES) delete process.env[name]
})

/** An OTLP receiver that answers nothing until `release` (then everything, at once and after). */
const heldCollector = async () => {
  const held: Array<ServerResponse> = []
  let released = false
  const answer = (res: ServerResponse) => res.writeHead(200, { "content-type": "application/json" }).end("{}")
  const server = createServer((req, res) => {
    req.resume()
    req.on("end", () => (released ? answer(res) : held.push(res)))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const release = () => {
    released = true
    held.splice(0).forEach(answer)
  }
  cleanups.push(() => new Promise<void>((resolve) => {
    release()
    server.close(() => resolve())
  }))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, release }
}

const waitFor = async (check: () => Promise<boolean> | boolean, what: string, ms = 10_000) => {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

interface LogLine {
  readonly message: unknown
  readonly logLevel: string
  readonly annotations?: Record<string, unknown>
}

/** A server with tracing on to a held collector, a lane queue of 2, metrics on and JSON logs captured. */
const tracedServer = async (otelLogLevel: string) => {
  const collector = await heldCollector()
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json"
  process.env.OTEL_BSP_MAX_QUEUE_SIZE = "2"
  process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE = "1"
  process.env.OTEL_LOG_LEVEL = otelLogLevel
  const lines: Array<string> = []
  const spy = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => void lines.push(args.map(String).join(" ")))
  cleanups.push(() => spy.mockRestore())
  const t: TestServer = await startServer(undefined, { metrics: ON, logFormat: "json", requestLog: () => undefined })
  // Let the held exports go before closing, so that the close does not wait out its timeout.
  cleanups.push(async () => {
    collector.release()
    await t.close()
  })
  let n = 0
  const traced = async () => {
    n++
    const reply = await request(t.url, "GET", "/v1/config?environment=development", {
      key: t.keys.client,
      headers: { traceparent: `00-${n.toString(16).padStart(32, "0")}-00f067aa0ba902b7-01` }
    })
    expect(reply.status).toBe(200)
  }
  const dropped = async () => {
    const reply = await fetch(`${t.url}/metrics`, SCRAPE)
    expect(reply.status).toBe(200)
    const families = parsePrometheusText(await reply.text())
    expect(families.get(DROPPED)?.type).toBe("counter")
    return valueOf(families, DROPPED)
  }
  /** The SDK's diagnostics the log received, parsed. */
  const diagnostics = (): ReadonlyArray<LogLine> =>
    lines.flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as LogLine
        return parsed.annotations?.logger === "opentelemetry" ? [parsed] : []
      } catch {
        return []
      }
    })
  return { traced, dropped, diagnostics }
}

/** Traced evaluations until the lane has dropped some (its exporter held at the collector). */
const dropSome = async (server: Awaited<ReturnType<typeof tracedServer>>) => {
  expect(await server.dropped()).toBe(0)
  for (let i = 0; i < 20; i++) await server.traced()
  await waitFor(async () => ((await server.dropped()) ?? 0) > 0, "dropped spans in /metrics")
}

const isLaneWarning = (line: LogLine) => line.logLevel === "WARN" && /^Dropped \d+ evaluation-lane spans because maxQueueSize reached$/.test(String(line.message))

describe("dropped evaluation-lane spans", () => {
  it("are counted in /metrics and warned about in the log at OTEL_LOG_LEVEL=warn", async () => {
    const server = await tracedServer("warn")
    await dropSome(server)
    // The warning goes out with the next batch the lane posts (2 spans: the queue's bound).
    await server.traced()
    await server.traced()
    await waitFor(() => server.diagnostics().some(isLaneWarning), "the lane's warning in the log")
    const reported = server.diagnostics().filter(isLaneWarning).reduce((sum, line) => sum + Number(/\d+/.exec(String(line.message))![0]), 0)
    // What was warned about was counted (the counter may have moved on since).
    expect(reported).toBeGreaterThan(0)
    expect(reported).toBeLessThanOrEqual((await server.dropped())!)
  }, 30_000)

  it("are still counted, and nothing below error is logged, at OTEL_LOG_LEVEL=error", async () => {
    const server = await tracedServer("error")
    await dropSome(server)
    // One more batch posted (so the lane's warning would have been written) and dropped by the worker.
    const before = (await server.dropped())!
    await server.traced()
    await server.traced()
    await waitFor(async () => (await server.dropped())! >= before + 2, "the last batch dropped")
    expect(server.diagnostics().filter((line) => line.logLevel !== "ERROR")).toEqual([])
  }, 30_000)

  it("a bad OTEL_LOG_LEVEL stops the start, naming the variable, whether tracing is on or not", async () => {
    process.env.OTEL_LOG_LEVEL = "loud"
    await expect(startServer()).rejects.toThrow(/OTEL_LOG_LEVEL: expected one of none, error, warn, info, debug, verbose, all, got 'loud'/)
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = "http://127.0.0.1:9"
    await expect(startServer()).rejects.toThrow(/OTEL_LOG_LEVEL/)
  })

  it("an export the collector refuses is reported as an error through diag, with the spans it lost", async () => {
    const refusing = await listen(400)
    cleanups.push(refusing.close)
    const errors: Array<string> = []
    const others: Array<string> = []
    const record = (into: Array<string>) => (message: string) => void into.push(message)
    OtelApi.diag.setLogger(
      { error: record(errors), warn: record(others), info: record(others), debug: () => undefined, verbose: () => undefined },
      { logLevel: OtelApi.DiagLogLevel.INFO, suppressOverrideMessage: true }
    )
    cleanups.push(() => OtelApi.diag.disable())
    const { lane, route } = await startTestLane(`${refusing.url}/v1/traces`, { maxExportBatchSize: 3 })
    for (let n = 1; n <= 3; n++) lane.start(route, `00-${n.toString(16).padStart(32, "0")}-00f067aa0ba902b7-01`)!.end(200)
    await lane.close()
    expect(refusing.received.length).toBe(1)
    expect(errors).toEqual([expect.stringMatching(/^Evaluation-lane spans' export failed, 3 spans lost: .+ \(HTTP 400\)$/)])
    expect(lane.dropped()).toBe(0)
  })
})
