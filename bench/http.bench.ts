/**
 * HTTP benchmark (run by hand): `npx tsx bench/http.bench.ts` (BENCH_DURATION=seconds, default 10).
 *
 * autocannon at 50 connections (BENCH_CONNECTIONS) against the evaluation routes of the standalone server (SQLite
 * file, 50 flags shaped like W2 of the foundation issue, a context with 4 attributes):
 *   POST /v1/evaluate, GET /v1/flags/{flagKey}/eval, GET /v1/config (200) and (304),
 *   POST /ofrep/v1/evaluate/flags (OFREP bulk, the same 50 flags and context) (200) and (304),
 * each side by side with a bare node:http server answering the very same bytes (status, headers,
 * body captured from Flagport). Each server runs in its own child process (this file bundled by
 * esbuild, as `npm start` runs the sources), autocannon in this one.
 * Prints a Markdown table: req/s of both, the ratio, and p99 latency.
 * Flagport runs with metrics on (FLAGPORT_METRICS=on on the API's port, behind a token; not
 * scraped) unless BENCH_METRICS=off.
 * Beside req/s it prints each server's CPU per request (all its threads, from /proc schedstat, Linux):
 * on a machine others load, req/s of two servers measured one after the other drift apart with
 * the load; the CPU a request costs drifts much less, so its ratio is the steadier figure.
 * BENCH_PROFILE_DIR=dir writes a CPU profile of the Flagport server.
 * BENCH_ONLY=<regular expression> measures only the routes whose name matches (e.g. `evaluate`).
 * BENCH_CONNECTIONS=1 measures one request at a time: req/s is then 1 / latency, the cost of a
 * request on an idle server (where write coalescing must cost nothing).
 *
 * `npx tsx bench/http.bench.ts insights`: what counting evaluations (insights) costs. Three
 * servers side by side on POST /v1/evaluate and the single-flag route: Flagport counting (the
 * default), Flagport with counting off (`lane.countEvaluations: false`, same data, own SQLite
 * file), and the bare node:http server answering the same bytes; measured in turn, in
 * BENCH_ROUNDS rounds (default 2) whose order rotates, so drift of the machine hits all three.
 */
import type { ChildProcess } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { Effect } from "effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { startServer } from "../adapters/http/serving/Server.js"
import * as StorageLayer from "../adapters/app/Composition.js"
import { bundledChildren, capture, type Captured, type Scenario } from "./bundled-children.js"
import { machineLine, rotatingRounds } from "./rotating-rounds.js"
import { CONTEXT, seedW2Project } from "./http-fixture.js"

const SELF = fileURLToPath(import.meta.url)
const DURATION = Number(process.env["BENCH_DURATION"] ?? 10)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 50)
/** BENCH_PROFILE_DIR=dir: a CPU profile of the Flagport server (written when it exits). */
const PROFILE_DIR = process.env["BENCH_PROFILE_DIR"]
/** Metrics on (FLAGPORT_METRICS=on, the setting an operator runs) unless BENCH_METRICS=off. */
const METRICS = process.env["BENCH_METRICS"] !== "off"
const ONLY = process.env["BENCH_ONLY"] === undefined ? undefined : new RegExp(process.env["BENCH_ONLY"])

// ------------------------------------------------------------------------------------------------
// Child: Flagport
// ------------------------------------------------------------------------------------------------

const serveFlagport = async (dir: string, counting = true) => {
  const databaseUrl = `sqlite:${join(dir, "bench.db")}`
  const clientKey = await Effect.runPromise(seedW2Project.pipe(Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl))))
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    databaseUrl,
    webhooks: false,
    lane: { countEvaluations: counting },
    // Metrics on (an operator's usual setting) unless BENCH_METRICS=off: on the API's port, behind a token.
    metrics: { enabled: METRICS, port: Option.none(), token: Option.some(Redacted.make("bench-scrape-token")) }
  })
  process.stdout.write(`${JSON.stringify({ port: server.port, clientKey })}\n`)
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)))
}

// ------------------------------------------------------------------------------------------------
// Child: bare node:http answering the captured bytes
// ------------------------------------------------------------------------------------------------

const serveBare = (file: string) => {
  const responses = JSON.parse(readFileSync(file, "utf8")) as Record<string, Captured>
  const server = createServer((req, res) => {
    const respond = () => {
      const key = `${req.method} ${req.url}${req.headers["if-none-match"] === undefined ? "" : " 304"}`
      const captured = responses[key]
      if (captured === undefined) {
        res.writeHead(404)
        res.end()
        return
      }
      const body = Buffer.from(captured.body)
      res.writeHead(captured.status, { ...captured.headers, ...(body.length > 0 ? { "content-length": body.length } : {}) })
      res.end(body)
    }
    if (req.method === "POST") {
      req.on("data", () => {})
      req.on("end", respond)
    } else respond()
  })
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as { port: number }
    process.stdout.write(`${JSON.stringify({ port: address.port })}\n`)
  })
}

// ------------------------------------------------------------------------------------------------
// Parent
// ------------------------------------------------------------------------------------------------

/**
 * This file bundled by esbuild, as `npm start` runs the server (bin/flagport.mjs bundles the
 * sources the same way; the package runs its tsup build): the servers are measured as shipped.
 * Through tsx (its loader, and `keepNames`, which wraps every closure made per request in a
 * `defineProperty` call) the 50-flag route cost 75 to 83 µs of CPU per request against 67 to 69
 * bundled, in alternating runs.
 */
const { startChild } = bundledChildren(SELF)

/**
 * CPU seconds of process `pid`, all its threads (Linux; /proc schedstat, nanoseconds on a CPU as
 * the scheduler counts them), or undefined elsewhere.
 */
const cpuOf = (pid: number | undefined): number | undefined => {
  if (pid === undefined || !existsSync(`/proc/${pid}/task`)) return undefined
  let sum = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      sum += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e9
    } catch {
      // a thread that ended in between
    }
  }
  return sum
}

/** A load run against `port` with the server's CPU per request (µs) over it, when it can be read. */
const measured = async (port: number, pid: number | undefined, scenario: Scenario) => {
  const before = cpuOf(pid)
  const result = await run(port, scenario)
  const after = cpuOf(pid)
  const cpuUs = before === undefined || after === undefined || result.requests.total === 0 ? undefined : ((after - before) * 1e6) / result.requests.total
  return { result, cpuUs }
}

const run = (port: number, scenario: Scenario) =>
  autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body })
  })


/** The two evaluation routes, as a client with `clientKey` calls them. */
const evaluationScenarios = (clientKey: string): Array<Scenario> => {
  const auth = { authorization: `Bearer ${clientKey}` }
  return [
    {
      name: "POST /v1/evaluate (50 flags)",
      method: "POST",
      path: "/v1/evaluate",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ environment: "production", context: CONTEXT })
    },
    {
      name: "GET /v1/flags/{flagKey}/eval",
      method: "GET",
      path: `/v1/flags/w2-flag-7/eval?environment=production&key=user-42&attributes=${encodeURIComponent(JSON.stringify(CONTEXT.attributes))}`,
      headers: auth
    }
  ]
}

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-bench-"))
  const children: Array<ChildProcess> = []
  try {
    const flagport = await startChild(["serve-flagport", dir], undefined, PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`])
    children.push(flagport.child)
    const port = flagport.info.port as number
    const auth = { authorization: `Bearer ${flagport.info.clientKey as string}` }
    const config = await capture(port, { name: "", method: "GET", path: "/v1/config?environment=production", headers: auth })
    const { key: targetingKey, attributes } = CONTEXT
    const ofrep = {
      method: "POST" as const,
      path: "/ofrep/v1/evaluate/flags",
      body: JSON.stringify({ context: { targetingKey, ...attributes } })
    }
    const ofrepHeaders = { ...auth, "content-type": "application/json", "flagport-environment": "production" }
    const ofrepEtag = (await capture(port, { name: "", ...ofrep, headers: ofrepHeaders })).headers["etag"]!
    const all: Array<Scenario> = [
      ...evaluationScenarios(flagport.info.clientKey as string),
      { name: "GET /v1/config (200)", method: "GET", path: "/v1/config?environment=production", headers: auth },
      {
        name: "GET /v1/config (304)",
        method: "GET",
        path: "/v1/config?environment=production",
        headers: { ...auth, "if-none-match": config.headers["etag"]! }
      },
      { name: "POST /ofrep/v1/evaluate/flags (50 flags)", ...ofrep, headers: ofrepHeaders },
      { name: "POST /ofrep/v1/evaluate/flags (304)", ...ofrep, headers: { ...ofrepHeaders, "if-none-match": ofrepEtag } }
    ]
    const scenarios = ONLY === undefined ? all : all.filter((scenario) => ONLY.test(scenario.name))
    const responses: Record<string, Captured> = {}
    for (const scenario of scenarios) {
      const captured = await capture(port, scenario)
      if (captured.status !== (scenario.name.includes("304") ? 304 : 200)) throw new Error(`${scenario.name}: ${captured.status} ${captured.body}`)
      responses[`${scenario.method} ${scenario.path}${scenario.headers["if-none-match"] === undefined ? "" : " 304"}`] = captured
    }
    const file = join(dir, "responses.json")
    writeFileSync(file, JSON.stringify(responses))
    const bare = await startChild(["serve-bare", file])
    children.push(bare.child)
    const barePort = bare.info.port as number

    const rows: Array<string> = []
    for (const scenario of scenarios) {
      // Warm both up (JIT, caches), then measure each in turn.
      await autocannon({ url: `http://127.0.0.1:${port}${scenario.path}`, connections: CONNECTIONS, duration: 2, method: scenario.method, headers: scenario.headers, ...(scenario.body === undefined ? {} : { body: scenario.body }) })
      await autocannon({ url: `http://127.0.0.1:${barePort}${scenario.path}`, connections: CONNECTIONS, duration: 2, method: scenario.method, headers: scenario.headers, ...(scenario.body === undefined ? {} : { body: scenario.body }) })
      const { result: ours, cpuUs: oursCpu } = await measured(port, flagport.child.pid, scenario)
      const { result: theirs, cpuUs: theirsCpu } = await measured(barePort, bare.child.pid, scenario)
      const bad = ours.non2xx - (scenario.name.includes("304") ? ours.requests.total : 0)
      if (ours.errors > 0 || bad > 0) throw new Error(`${scenario.name}: ${ours.errors} errors, ${ours.non2xx} non-2xx`)
      const ratio = ours.requests.average / theirs.requests.average
      const cpu = oursCpu === undefined || theirsCpu === undefined
        ? "| | |"
        : `| ${oursCpu.toFixed(1)} / ${theirsCpu.toFixed(1)} | ${(theirsCpu / oursCpu).toFixed(2)} |`
      rows.push(
        `| ${scenario.name} | ${Math.round(ours.requests.average)} | ${ours.latency.p99} ms | ${Math.round(theirs.requests.average)} | ${theirs.latency.p99} ms | ${ratio.toFixed(2)} ${cpu}`
      )
      console.error(rows[rows.length - 1])
    }
    console.log(machineLine())
    console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} per run, after a 2 s warm-up of each server, metrics ${METRICS ? "on" : "off"}\n`)
    console.log("| route | Flagport req/s | Flagport p99 | bare node:http req/s | bare p99 | ratio | CPU µs/request, Flagport / bare | bare / Flagport CPU |")
    console.log("|---|---|---|---|---|---|---|---|")
    for (const row of rows) console.log(row)
  } finally {
    for (const child of children) child.kill("SIGTERM")
    rmSync(dir, { recursive: true, force: true })
  }
}

// ------------------------------------------------------------------------------------------------
// Insights: counting on vs off vs bare
// ------------------------------------------------------------------------------------------------

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 2)

const mainInsights = async () => {
  const dirs = [mkdtempSync(join(tmpdir(), "flagport-bench-on-")), mkdtempSync(join(tmpdir(), "flagport-bench-off-"))]
  const children: Array<ChildProcess> = []
  try {
    const on = await startChild(["serve-flagport", dirs[0]!])
    children.push(on.child)
    const off = await startChild(["serve-flagport", dirs[1]!, "off"])
    children.push(off.child)
    const servers = [
      { name: "counting on", port: on.info.port as number, scenarios: evaluationScenarios(on.info.clientKey as string) },
      { name: "counting off", port: off.info.port as number, scenarios: evaluationScenarios(off.info.clientKey as string) }
    ]
    const responses: Record<string, Captured> = {}
    for (const server of servers) {
      for (const scenario of server.scenarios) {
        const captured = await capture(server.port, scenario)
        if (captured.status !== 200) throw new Error(`${server.name} ${scenario.name}: ${captured.status} ${captured.body}`)
        if (server === servers[0]) responses[`${scenario.method} ${scenario.path}`] = captured
      }
    }
    const file = join(dirs[0]!, "responses.json")
    writeFileSync(file, JSON.stringify(responses))
    const bare = await startChild(["serve-bare", file])
    children.push(bare.child)
    const all = [...servers, { name: "bare node:http", port: bare.info.port as number, scenarios: servers[0]!.scenarios }]

    const rounds = await rotatingRounds(all, ROUNDS, async (server, scenario) => {
      await autocannon({ url: `http://127.0.0.1:${server.port}${scenario.path}`, connections: CONNECTIONS, duration: 2, method: scenario.method, headers: scenario.headers, ...(scenario.body === undefined ? {} : { body: scenario.body }) })
      return run(server.port, scenario)
    })
    console.log(machineLine())
    console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} per run, after a 2 s warm-up, ${ROUNDS} rounds (mean req/s, worst p99)\n`)
    console.log("| route | counting on req/s | counting off req/s | bare node:http req/s | on / off | on / bare | p99 on / off / bare |")
    console.log("|---|---|---|---|---|---|---|")
    for (const scenario of servers[0]!.scenarios) {
      const [onRps, offRps, bareRps] = all.map((server) => rounds.meanRps(scenario, server))
      const [onP, offP, bareP] = all.map((server) => rounds.worstP99(scenario, server))
      console.log(
        `| ${scenario.name} | ${Math.round(onRps!)} | ${Math.round(offRps!)} | ${Math.round(bareRps!)} | ${(onRps! / offRps!).toFixed(3)} | ${(onRps! / bareRps!).toFixed(2)} | ${onP} / ${offP} / ${bareP} ms |`
      )
    }
  } finally {
    for (const child of children) child.kill("SIGTERM")
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

const [mode, arg, option] = process.argv.slice(2)
if (mode === "serve-flagport") await serveFlagport(arg!, option !== "off")
else if (mode === "serve-bare") serveBare(arg!)
else if (mode === "insights") await mainInsights()
else await main()
