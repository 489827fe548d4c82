/**
 * What /metrics costs the evaluation routes (run by hand; not a test):
 * `npx tsx bench/metrics.bench.ts` (BENCH_DURATION=seconds per run, default 10; BENCH_ROUNDS,
 * default 2; BENCH_CONNECTIONS, default 50).
 *
 * Three servers side by side, each in its own child process (this file bundled by esbuild, as
 * `npm start` runs the sources): Flagport with metrics off (the default), Flagport with
 * FLAGPORT_METRICS=on (its own SQLite file, the same data), and a bare node:http server answering
 * the very bytes Flagport answered. Measured with autocannon on POST /v1/evaluate (50 flags) and
 * GET /v1/flags/{flagKey}/eval, in rounds whose order rotates so that drift of the machine hits all
 * three; a scrape of /metrics runs every second against the metrics-on server during its runs, as
 * Prometheus would (more often than a real 15 s interval, to show the scrape's cost too).
 * Prints a Markdown table: mean req/s, on/off, on/bare (issue 29 asks on/bare >= 0.5), worst p99.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as StorageLayer from "../adapters/app/Composition.js"
import { startServer } from "../adapters/http/serving/Server.js"
import { bundledChildren, capture, type Captured, type Scenario } from "./bundled-children.js"
import { machineLine, rotatingRounds } from "./rotating-rounds.js"
import { CONTEXT, seedW2Project } from "./http-fixture.js"

const SELF = fileURLToPath(import.meta.url)
const DURATION = Number(process.env["BENCH_DURATION"] ?? 10)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 50)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 2)
const SCRAPE_TOKEN = "bench-scrape-token"

/** Child: Flagport on a fresh SQLite file, metrics on or off (never from the environment). */
const serveFlagport = async (dir: string, metrics: boolean) => {
  const databaseUrl = `sqlite:${join(dir, "bench.db")}`
  const clientKey = await Effect.runPromise(seedW2Project.pipe(Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl))))
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    databaseUrl,
    webhooks: false,
    // On the API's port, behind the token it requires there (the scrape below sends it).
    metrics: { enabled: metrics, port: Option.none(), token: Option.some(Redacted.make(SCRAPE_TOKEN)) },
    logFormat: "text"
  })
  process.stdout.write(`${JSON.stringify({ port: server.port, clientKey })}\n`)
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)))
}

/** Child: bare node:http answering the captured bytes. */
const serveBare = (file: string) => {
  const responses = JSON.parse(readFileSync(file, "utf8")) as Record<string, Captured>
  const server = createServer((req, res) => {
    const respond = () => {
      const captured = responses[`${req.method} ${req.url}`]
      if (captured === undefined) return void res.writeHead(404).end()
      const body = Buffer.from(captured.body)
      res.writeHead(captured.status, { ...captured.headers, "content-length": body.length })
      res.end(body)
    }
    if (req.method === "POST") {
      req.on("data", () => {})
      req.on("end", respond)
    } else respond()
  })
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`))
}

const { startChild } = bundledChildren(SELF)

const scenariosFor = (clientKey: string): Array<Scenario> => {
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

const load = (port: number, scenario: Scenario, duration: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    connections: CONNECTIONS,
    duration,
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body })
  })

/** Scrapes /metrics every second while `during` runs (the metrics-on server only). */
const scraping = async <A>(port: number, during: Promise<A>): Promise<A> => {
  const timer = setInterval(() => void fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } }).then((r) => r.text()).catch(() => {}), 1000)
  try {
    return await during
  } finally {
    clearInterval(timer)
  }
}

const main = async () => {
  const dirs = [mkdtempSync(join(tmpdir(), "flagport-bench-moff-")), mkdtempSync(join(tmpdir(), "flagport-bench-mon-"))]
  const children: Array<ChildProcess> = []
  try {
    const off = await startChild(["serve-flagport", dirs[0]!, "off"])
    children.push(off.child)
    const on = await startChild(["serve-flagport", dirs[1]!, "on"])
    children.push(on.child)
    const servers = [
      { name: "metrics off", port: off.info.port as number, scenarios: scenariosFor(off.info.clientKey as string), scrape: false },
      { name: "metrics on", port: on.info.port as number, scenarios: scenariosFor(on.info.clientKey as string), scrape: true }
    ]
    const scrape = await fetch(`http://127.0.0.1:${servers[1]!.port}/metrics`)
    if (scrape.status !== 200) throw new Error(`metrics on: /metrics answered ${scrape.status}`)
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
    const all = [...servers, { name: "bare node:http", port: bare.info.port as number, scenarios: servers[0]!.scenarios, scrape: false }]

    const rounds = await rotatingRounds(all, ROUNDS, async (server, scenario) => {
      await load(server.port, scenario, 2)
      const run = load(server.port, scenario, DURATION)
      return server.scrape ? await scraping(server.port, run) : await run
    })
    console.log(machineLine())
    console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} per run, after a 2 s warm-up, ${ROUNDS} rounds (mean req/s, worst p99); /metrics scraped every second during the metrics-on runs\n`)
    console.log("| route | metrics off req/s | metrics on req/s | bare node:http req/s | on / off | on / bare | p99 off / on / bare |")
    console.log("|---|---|---|---|---|---|---|")
    for (const scenario of servers[0]!.scenarios) {
      const [offRps, onRps, bareRps] = all.map((server) => rounds.meanRps(scenario, server))
      const [offP, onP, bareP] = all.map((server) => rounds.worstP99(scenario, server))
      console.log(
        `| ${scenario.name} | ${Math.round(offRps!)} | ${Math.round(onRps!)} | ${Math.round(bareRps!)} | ${(onRps! / offRps!).toFixed(3)} | ${(onRps! / bareRps!).toFixed(2)} | ${offP} / ${onP} / ${bareP} ms |`
      )
    }
  } finally {
    for (const child of children) child.kill("SIGTERM")
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

const [mode, arg, option] = process.argv.slice(2)
if (mode === "serve-flagport") await serveFlagport(arg!, option === "on")
else if (mode === "serve-bare") serveBare(arg!)
else await main()
