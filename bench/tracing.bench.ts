/**
 * What tracing costs the evaluation routes (issue 29), run by hand:
 *
 *   npx tsx bench/tracing.bench.ts          (BENCH_DURATION=seconds per run, default 10;
 *                                           BENCH_ROUNDS, default 2; BENCH_CONNECTIONS, default 50;
 *                                           BENCH_PROFILE_DIR=dir: a CPU profile of the traced server;
 *                                           OTEL_BSP_* are given to the traced server, e.g.
 *                                           OTEL_BSP_MAX_EXPORT_BATCH_SIZE: spans per export)
 *
 * Two standalone servers over the data of bench/http-fixture.ts (50 W2 flags, one context), each
 * in its own child process (this file bundled by esbuild, as bench/http.bench.ts does):
 *
 *   tracing off                 no OTEL_* variables (the lane's path has nothing added);
 *   tracing on                  OTEL_EXPORTER_OTLP_ENDPOINT to a sink collector (a third child
 *                               answering 200 to every OTLP/HTTP protobuf POST), measured twice:
 *     - without traceparent     callers that do not trace (the lane starts no span: a header lookup),
 *     - with traceparent        every request carries a sampled W3C traceparent, so each gets a
 *                               server span, batched and exported (the worst case for the lane).
 *
 * Routes: POST /v1/evaluate and GET /v1/flags/{flagKey}/eval. Rounds rotate the order of the three
 * rows so drift of the machine hits all of them. Target (issue 29): "on" within 10% of "off".
 * Prints a Markdown table: mean req/s per row, on / off ratios, worst p99; then (Linux) the CPU time
 * per request over the measured runs, from /proc: the server's (all its threads, its event loop,
 * the rest: the lane spans' worker, the collector threads of V8), the collector's and the load
 * generator's (this process), a figure that a loaded machine moves far less than it moves req/s.
 * On a machine whose cores are all busy (this bench's three processes), req/s follows the CPU all
 * three spend per request, not only the server's event loop.
 */
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { Effect } from "effect"
import { startServer } from "../adapters/http/serving/Server.js"
import * as StorageLayer from "../adapters/app/Composition.js"
import { bundledChildren, type Scenario } from "./bundled-children.js"
import { machineLine, rotatingRounds } from "./rotating-rounds.js"
import { CONTEXT, seedW2Project } from "./http-fixture.js"

const SELF = fileURLToPath(import.meta.url)
const DURATION = Number(process.env["BENCH_DURATION"] ?? 10)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 50)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 2)
const PROFILE_DIR = process.env["BENCH_PROFILE_DIR"]
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

// Child: Flagport (the OTEL_* variables, if any, come from the parent).
const serveFlagport = async (dir: string) => {
  const databaseUrl = `sqlite:${join(dir, "bench.db")}`
  const clientKey = await Effect.runPromise(seedW2Project.pipe(Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl))))
  const server = await startServer({ port: 0, host: "127.0.0.1", databaseUrl, webhooks: false, schedules: false })
  process.stdout.write(`${JSON.stringify({ port: server.port, clientKey })}\n`)
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)))
}

// Child: a collector that takes every export and answers 200 (counting the bytes received).
const serveSink = () => {
  let bytes = 0
  let posts = 0
  const server = createServer((req, res) => {
    req.on("data", (chunk: Buffer) => (bytes += chunk.length))
    req.on("end", () => {
      posts++
      res.writeHead(200, { "content-type": "application/x-protobuf" })
      res.end()
    })
  })
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`))
  process.on("SIGTERM", () => {
    process.stderr.write(`collector: ${posts} exports, ${bytes} bytes\n`)
    process.exit(0)
  })
}

const children = bundledChildren(SELF)
/** The caller's OTEL_BSP_* variables (the batch processor's settings), given to the traced server only. */
const BATCH_SETTINGS = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith("OTEL_BSP_") && entry[1] !== undefined))

/** A child without the caller's OTEL_* variables (each variant sets its own). */
const startChild = (args: ReadonlyArray<string>, env: Record<string, string> = {}, nodeArgs: ReadonlyArray<string> = []) =>
  children.startChild(args, { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("OTEL_"))), ...env }, nodeArgs)

const scenarios = (clientKey: string, extra: Record<string, string>): Array<Scenario> => [
  {
    name: "POST /v1/evaluate (50 flags)",
    method: "POST",
    path: "/v1/evaluate",
    headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json", ...extra },
    body: JSON.stringify({ environment: "production", context: CONTEXT })
  },
  {
    name: "GET /v1/flags/{flagKey}/eval",
    method: "GET",
    path: `/v1/flags/w2-flag-7/eval?environment=production&key=user-42&attributes=${encodeURIComponent(JSON.stringify(CONTEXT.attributes))}`,
    headers: { authorization: `Bearer ${clientKey}`, ...extra }
  }
]

/**
 * CPU seconds of process `pid` (Linux): all its threads, and its main thread (the event loop), from
 * each thread's /proc schedstat (nanoseconds on a CPU, as the scheduler counts them; the stat
 * files' ticks are sampled, and charge a thread woken at a tick for the whole tick).
 */
const cpuOf = (pid: number): { readonly all: number; readonly main: number } | undefined => {
  const onCpu = (tid: string) => {
    try {
      return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e9
    } catch {
      return 0 // a thread that ended in between
    }
  }
  if (!existsSync(`/proc/${pid}/task`)) return undefined
  const all = readdirSync(`/proc/${pid}/task`).reduce((sum, tid) => sum + onCpu(tid), 0)
  return { all, main: onCpu(String(pid)) }
}

const load = (port: number, scenario: Scenario, duration: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    connections: CONNECTIONS,
    duration,
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body })
  })

const main = async () => {
  const dirs = [mkdtempSync(join(tmpdir(), "flagport-trace-off-")), mkdtempSync(join(tmpdir(), "flagport-trace-on-"))]
  const children: Array<ChildProcess> = []
  try {
    const sink = await startChild(["serve-sink"])
    children.push(sink.child)
    const off = await startChild(["serve-flagport", dirs[0]!])
    children.push(off.child)
    const on = await startChild(["serve-flagport", dirs[1]!], {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.info.port as number}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_SERVICE_NAME: "flagport-bench",
      ...BATCH_SETTINGS
    }, PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]) // its profile, written when it exits
    children.push(on.child)
    const rows = [
      { name: "tracing off", port: off.info.port as number, pid: off.child.pid!, scenarios: scenarios(off.info.clientKey as string, {}) },
      { name: "tracing on, no traceparent", port: on.info.port as number, pid: on.child.pid!, scenarios: scenarios(on.info.clientKey as string, {}) },
      { name: "tracing on, traceparent", port: on.info.port as number, pid: on.child.pid!, scenarios: scenarios(on.info.clientKey as string, { traceparent: TRACEPARENT }) }
    ]
    for (const row of rows) {
      for (const scenario of row.scenarios) {
        const response = await fetch(`http://127.0.0.1:${row.port}${scenario.path}`, {
          method: scenario.method,
          headers: scenario.headers,
          ...(scenario.body === undefined ? {} : { body: scenario.body })
        })
        if (response.status !== 200) throw new Error(`${row.name} ${scenario.name}: ${response.status} ${await response.text()}`)
      }
    }
    /**
     * Per row and scenario, over the measured runs: CPU seconds of the server (all threads, event
     * loop), of the collector and of the load generator (this process), and the requests answered.
     */
    const cpu = new Map<string, { all: number; main: number; collector: number; generator: number; requests: number }>()
    const sinkPid = sink.child.pid!
    const rounds = await rotatingRounds(rows, ROUNDS, async (row, scenario) => {
      await load(row.port, scenario, 2) // warm-up
      const before = [cpuOf(row.pid), cpuOf(sinkPid), cpuOf(process.pid)] as const
      const result = await load(row.port, scenario, DURATION)
      const after = [cpuOf(row.pid), cpuOf(sinkPid), cpuOf(process.pid)] as const
      if (before.every((c) => c !== undefined) && after.every((c) => c !== undefined)) {
        const id = `${scenario.name}|${row.name}`
        const sum = cpu.get(id) ?? { all: 0, main: 0, collector: 0, generator: 0, requests: 0 }
        cpu.set(id, {
          all: sum.all + after[0]!.all - before[0]!.all,
          main: sum.main + after[0]!.main - before[0]!.main,
          collector: sum.collector + after[1]!.all - before[1]!.all,
          generator: sum.generator + after[2]!.all - before[2]!.all,
          requests: sum.requests + result.requests.total
        })
      }
      return result
    })
    console.log(machineLine())
    console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} per run, after a 2 s warm-up, ${ROUNDS} rounds (mean req/s, worst p99)`)
    console.log(`traced server's batch settings: ${Object.keys(BATCH_SETTINGS).length === 0 ? "the defaults" : Object.entries(BATCH_SETTINGS).map(([k, v]) => `${k}=${v}`).join(" ")}\n`)
    console.log("| route | off req/s | on, no traceparent req/s | on, traceparent req/s | on (none) / off | on (traceparent) / off | p99 off / on / on+tp |")
    console.log("|---|---|---|---|---|---|---|")
    for (const scenario of rows[0]!.scenarios) {
      const [offRps, onRps, tracedRps] = rows.map((row) => rounds.meanRps(scenario, row))
      const [offP, onP, tracedP] = rows.map((row) => rounds.worstP99(scenario, row))
      console.log(
        `| ${scenario.name} | ${Math.round(offRps!)} | ${Math.round(onRps!)} | ${Math.round(tracedRps!)} | ${(onRps! / offRps!).toFixed(3)} | ${(tracedRps! / offRps!).toFixed(3)} | ${offP} / ${onP} / ${tracedP} ms |`
      )
    }
    if (cpu.size > 0) {
      const us = (seconds: number, requests: number) => (seconds * 1e6 / requests).toFixed(1)
      const perRequest = (scenario: Scenario, row: (typeof rows)[number]) => {
        const c = cpu.get(`${scenario.name}|${row.name}`)! // scenarios differ per row (keys, headers) by value, not by name
        return `${us(c.all, c.requests)} / ${us(c.main, c.requests)} / ${us(c.all - c.main, c.requests)} / ${us(c.collector, c.requests)} / ${us(c.generator, c.requests)} / ${us(c.all + c.collector + c.generator, c.requests)}`
      }
      console.log("\nCPU per request, µs, over the measured runs: server (all threads / event loop / other threads) / collector / load generator / all three:\n")
      console.log(`| route | ${rows.map((row) => row.name).join(" | ")} |`)
      console.log(`|---|${rows.map(() => "---").join("|")}|`)
      for (const scenario of rows[0]!.scenarios) {
        console.log(`| ${scenario.name} | ${rows.map((row) => perRequest(scenario, row)).join(" | ")} |`)
      }
    }
  } finally {
    for (const child of children) child.kill("SIGTERM")
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

const [mode, arg] = process.argv.slice(2)
if (mode === "serve-flagport") await serveFlagport(arg!)
else if (mode === "serve-sink") serveSink()
else await main()
