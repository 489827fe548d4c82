/**
 * What tracing costs the evaluation routes (issue 29), run by hand:
 *
 *   npx tsx bench/tracing.bench.ts          (BENCH_DURATION=seconds per run, default 10;
 *                                           BENCH_ROUNDS, default 2; BENCH_CONNECTIONS, default 50;
 *                                           BENCH_PROFILE_DIR=dir: a CPU profile of the traced server)
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
 * Prints a Markdown table: mean req/s per row, on / off ratios, worst p99; then (Linux) the server's
 * CPU time per request over the measured runs, all its threads and its event loop alone, read
 * from /proc: a figure that a loaded machine moves far less than it moves req/s.
 */
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
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

/** CPU seconds (user + system) of process `pid`, all threads and the main thread, from /proc (Linux; 100 ticks a second). */
const cpuOf = (pid: number): { readonly all: number; readonly main: number } | undefined => {
  const seconds = (path: string) => {
    const fields = readFileSync(path, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  }
  const stat = `/proc/${pid}/stat`
  return existsSync(stat) ? { all: seconds(stat), main: seconds(`/proc/${pid}/task/${pid}/stat`) } : undefined
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
      OTEL_SERVICE_NAME: "flagport-bench"
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
    /** Per row and scenario: CPU seconds (all threads, main thread) and requests over the measured runs. */
    const cpu = new Map<string, { all: number; main: number; requests: number }>()
    const rounds = await rotatingRounds(rows, ROUNDS, async (row, scenario) => {
      await load(row.port, scenario, 2) // warm-up
      const before = cpuOf(row.pid)
      const result = await load(row.port, scenario, DURATION)
      const after = cpuOf(row.pid)
      if (before !== undefined && after !== undefined) {
        const id = `${scenario.name}|${row.name}`
        const sum = cpu.get(id) ?? { all: 0, main: 0, requests: 0 }
        cpu.set(id, { all: sum.all + after.all - before.all, main: sum.main + after.main - before.main, requests: sum.requests + result.requests.total })
      }
      return result
    })
    console.log(machineLine())
    console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} per run, after a 2 s warm-up, ${ROUNDS} rounds (mean req/s, worst p99)\n`)
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
      const perRequest = (scenario: Scenario, row: (typeof rows)[number]) => {
        const c = cpu.get(`${scenario.name}|${row.name}`)! // scenarios differ per row (keys, headers) by value, not by name
        return `${(c.all * 1e6 / c.requests).toFixed(1)} / ${(c.main * 1e6 / c.requests).toFixed(1)}`
      }
      console.log("\nServer CPU per request, µs (all threads / event loop), over the measured runs:\n")
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
