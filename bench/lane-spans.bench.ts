/**
 * What one traced evaluation's span costs, piece by piece (issue 29; bench/tracing.bench.ts
 * measures whole servers), run by hand:
 *
 *   npx tsx bench/lane-spans.bench.ts      (RATE=spans a second in part 2, default 50000;
 *                                          SECONDS, default 10)
 *
 * 1. The event loop's part, in a tight loop (ns per span, the third of three passes): reading a
 *    `traceparent` (traceParentFlags, and parseTraceParent for comparison), the two clock reads a
 *    span takes, and a whole span started and ended through LaneSpans (its record and, every
 *    512 spans, the post to the worker), over 4,096 distinct flat header strings, as node's HTTP
 *    parser makes them.
 * 2. The same spans at a steady RATE, exported with the defaults to a collector in a child
 *    process that drains what it is sent and answers 200 (as bench/tracing.bench.ts's sink):
 *    CPU per span of the event loop, of this process's other threads (the lane spans' worker:
 *    encoding and the OTLP/HTTP send; V8's helpers) and of the collector, from each thread's
 *    /proc schedstat (Linux). The event loop's figure includes this loop's pacing (a timer a
 *    millisecond), shown by the same loop reading the header only.
 */
import { spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { setTimeout as sleep } from "node:timers/promises"
import { startLaneSpans } from "../adapters/telemetry/lane/LaneSpans.js"
import { parseTraceParent, traceParentFlags } from "../src/domain/tracing/TraceParent.js"

const RATE = Number(process.env["RATE"] ?? 50_000)
const SECONDS = Number(process.env["SECONDS"] ?? 10)
const ROUTE = { name: "GET /v1/flags/:flagKey/eval", attributes: { "http.request.method": "GET", "http.route": "/v1/flags/:flagKey/eval" } }

/** Flat strings (a concatenation would be a rope, slower to read), distinct trace ids. */
const HEADERS = Array.from({ length: 4096 }, (_, i) =>
  Buffer.from(`00-4bf92f3577b34da6a3ce${(0x100000000000 + i).toString(16)}-00f067aa0ba902b7-01`).toString("latin1"))

/** Seconds on a CPU of thread `tid` of `pid` (0 once it has ended). */
const onCpu = (pid: number, tid: number | string) => {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e9
  } catch {
    return 0
  }
}
const threadsOf = (pid: number) => readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + onCpu(pid, tid), 0)

/** The collector: a child that takes every export and answers 200. */
const startCollector = async () => {
  const child = spawn(process.execPath, ["-e", `
    const server = require("node:http").createServer((req, res) => {
      req.on("data", () => {})
      req.on("end", () => { res.writeHead(200, { "content-type": "application/x-protobuf" }); res.end() })
    })
    server.listen(0, "127.0.0.1", () => console.log(server.address().port))`], { stdio: ["ignore", "pipe", "inherit"] })
  const port = await new Promise<number>((resolve) => child.stdout!.once("data", (line: Buffer) => resolve(Number(String(line)))))
  return { child, port }
}

const tightLoop = (name: string, op: (header: string) => void, N = 1_000_000) => {
  let ns = 0
  for (let pass = 0; pass < 3; pass++) {
    const started = process.hrtime.bigint()
    for (let i = 0; i < N; i++) op(HEADERS[i & 4095]!)
    ns = Number(process.hrtime.bigint() - started) / N
  }
  console.log(`| ${name} | ${ns.toFixed(0)} |`)
}

const main = async () => {
  const collector = await startCollector()
  try {
    const options = {
      url: `http://127.0.0.1:${collector.port}/v1/traces`,
      protocol: "http/protobuf",
      resource: { "service.name": "flagport-bench" },
      scope: { name: "flagport-bench" }
    } as const
    const parentSampled = (_: string, sampled: boolean) => sampled
    // The tight loop spans far faster than any worker exports: a queue without bound, so that every
    // span is posted (past a bound a batch is dropped before its post, which would flatter the loop).
    const unbounded = await startLaneSpans({ ...options, maxQueueSize: 1e9 })
    const unboundedRoute = unbounded.route(ROUTE.name, ROUTE.attributes)
    const lane = await startLaneSpans(options)
    const route = lane.route(ROUTE.name, ROUTE.attributes)
    const span = (header: string) => lane.start(route, header, parentSampled)?.end(200)

    console.log("Event loop, tight loop (ns per span):\n\n| step | ns |\n|---|---:|")
    tightLoop("traceParentFlags (the lane's check)", (header) => void traceParentFlags(header))
    tightLoop("parseTraceParent (check, two slices, an object)", (header) => void parseTraceParent(header))
    tightLoop("performance.now() twice", () => void (performance.now() + performance.now()))
    tightLoop("a span started and ended (LaneSpans)", (header) => unbounded.start(unboundedRoute, header, parentSampled)?.end(200), 200_000)
    await unbounded.close(60_000)

    if (!existsSync(`/proc/${process.pid}/task`)) return
    const paced = async (name: string, op: (header: string) => void) => {
      const before = { main: onCpu(process.pid, process.pid), all: threadsOf(process.pid), collector: threadsOf(collector.child.pid!) }
      const started = performance.now()
      let n = 0
      while (performance.now() - started < SECONDS * 1000) {
        const due = Math.floor(((performance.now() - started) / 1000) * RATE)
        while (n < due) op(HEADERS[n++ & 4095]!)
        await sleep(1)
      }
      await lane.flush()
      const main = onCpu(process.pid, process.pid) - before.main
      const others = threadsOf(process.pid) - before.all - main
      const collected = threadsOf(collector.child.pid!) - before.collector
      const us = (seconds: number) => (seconds * 1e6 / n).toFixed(2)
      console.log(`| ${name} | ${n} | ${us(main)} | ${us(others)} | ${us(collected)} |`)
    }
    console.log(`\nAt ${RATE} spans a second for ${SECONDS} s (µs of CPU per span, from /proc schedstat):\n`)
    console.log("| loop | spans | event loop | other threads (the worker) | collector |\n|---|---:|---:|---:|---:|")
    await paced("header read only (the pacing's own cost)", (header) => void traceParentFlags(header))
    await paced("spans exported", span)
    console.log(`\nspans dropped at the steady rate: ${lane.dropped()}`)
    await lane.close()
  } finally {
    collector.child.kill("SIGTERM")
  }
}

await main()
