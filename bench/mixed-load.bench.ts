/**
 * Mixed-load benchmark on SQLite (run by hand):
 *
 *   npx tsx bench/mixed-load.bench.ts [CHECKOUT...]
 *
 * For each checkout (default: this one), in turn: `flagport serve --init` from that checkout on a
 * fresh SQLite file, 50 flags shaped like W2 of the foundation issue, then for BENCH_DURATION
 * seconds (default 60) BENCH_CONNECTIONS connections (default 500) at once: 80% of them send
 * evaluations (POST /v1/evaluate, client key), 20% writes (PUT .../targeting of a random flag,
 * server key, enabled flipped each time). Evaluating clients and administrators do not wait for
 * each other, so each kind has its own connections. Meanwhile a separate process opens a fresh
 * TCP connection every 250 ms and times GET /health on it (15 s timeout), which is what a load
 * balancer's probe or a new client sees. Prints one Markdown row per checkout.
 *
 * Passing two checkouts (e.g. an extract of main and this one) measures before and after on the
 * same machine in one run. Each server runs through its checkout's `bin/flagport.mjs`, the public
 * command, so internal moves between the two versions do not matter.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { cpus, tmpdir, totalmem } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"

const SELF = fileURLToPath(import.meta.url)
const HERE = resolve(SELF, "../..")
const DURATION = Number(process.env["BENCH_DURATION"] ?? 60)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 500)
const FLAGS = 50
const PROBE_INTERVAL_MS = 250
const PROBE_TIMEOUT_MS = 15_000

// ------------------------------------------------------------------------------------------------
// Probe (child process): fresh-connection GET /health
// ------------------------------------------------------------------------------------------------

interface ProbeReport {
  readonly latenciesMs: ReadonlyArray<number>
  readonly timeouts: number
  readonly errors: number
}

const probeOnce = (port: number): Promise<number | "timeout" | "error"> =>
  new Promise((done) => {
    const started = performance.now()
    // agent: false: a new TCP connection each time, which must get through the listen queue.
    const req = request({ host: "127.0.0.1", port, path: "/health", agent: false, timeout: PROBE_TIMEOUT_MS }, (res) => {
      res.resume()
      res.on("end", () => done(res.statusCode === 200 ? performance.now() - started : "error"))
    })
    req.on("timeout", () => {
      req.destroy()
      done("timeout")
    })
    req.on("error", () => done("error"))
    req.end()
  })

const probe = async (port: number, durationMs: number) => {
  const results: Array<Promise<number | "timeout" | "error">> = []
  const end = Date.now() + durationMs
  while (Date.now() < end) {
    results.push(probeOnce(port))
    await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS))
  }
  const settled = await Promise.all(results)
  const report: ProbeReport = {
    latenciesMs: settled.filter((r): r is number => typeof r === "number"),
    timeouts: settled.filter((r) => r === "timeout").length,
    errors: settled.filter((r) => r === "error").length
  }
  process.stdout.write(JSON.stringify(report))
}

// ------------------------------------------------------------------------------------------------
// Parent
// ------------------------------------------------------------------------------------------------

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer()
    server.on("error", fail)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => done(port))
    })
  })

interface Server {
  readonly child: ChildProcess
  readonly port: number
  readonly serverKey: string
  readonly clientKey: string
}

/** `flagport serve --init` from a checkout on a fresh SQLite file; resolves once /health answers. */
const startServer = async (checkout: string, dir: string): Promise<Server> => {
  const port = await freePort()
  const child = spawn(process.execPath, [join(checkout, "bin/flagport.mjs"), "serve", "--init"], {
    cwd: checkout,
    env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, "bench.db")}`, PORT: String(port), HOST: "127.0.0.1", FLAGPORT_LOG_LEVEL: "warn", FLAGPORT_CLI_RUNNER: "tsx" },
    stdio: ["ignore", "pipe", "inherit"]
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  const deadline = Date.now() + 120_000
  for (;;) {
    const keys = { server: /SERVER_KEY=(\S+)/.exec(output)?.[1], client: /CLIENT_KEY=(\S+)/.exec(output)?.[1] }
    if (keys.server !== undefined && keys.client !== undefined && (await probeOnce(port)) !== "error") {
      return { child, port, serverKey: keys.server, clientKey: keys.client }
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server in ${checkout} did not start:\n${output}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

const w2Targeting = (enabled: boolean) => ({
  environment: "production",
  enabled,
  defaultVariationKey: "C",
  offVariationKey: "C",
  rules: [
    {
      conditions: [
        { attribute: "country", operator: "in", values: ["US", "CA", "MX"] },
        { attribute: "plan", operator: "in", values: ["pro", "enterprise"] }
      ],
      variationKey: "A"
    },
    { conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }], variationKey: "B" },
    { conditions: [], rollout: { bucketBy: "key", variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "C", weight: 50_000 }] } }
  ]
})

const seed = async (server: Server) => {
  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${server.serverKey}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  }
  for (let i = 0; i < FLAGS; i++) {
    const key = `w2-flag-${i}`
    await call("POST", "/v1/projects/default/flags", {
      key,
      name: key,
      type: "string",
      variations: [
        { key: "A", value: "a" },
        { key: "B", value: "b" },
        { key: "C", value: "c" }
      ]
    })
    await call("PUT", `/v1/projects/default/flags/${key}/targeting`, w2Targeting(true))
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

const runProbe = (port: number, durationMs: number): Promise<ProbeReport> =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--import", "tsx", SELF, "--probe", String(port), String(durationMs)], { stdio: ["ignore", "pipe", "inherit"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.on("exit", (code) => (code === 0 ? done(JSON.parse(output) as ProbeReport) : fail(new Error(`probe exited with ${code}`))))
  })

const describeCheckout = (checkout: string) => {
  try {
    return `${checkout} @ ${execFileSync("git", ["-C", checkout, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()}`
  } catch {
    return checkout
  }
}

const measure = async (checkout: string) => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-mixed-"))
  const server = await startServer(checkout, dir)
  try {
    await seed(server)
    const context = { key: "user-42", attributes: { email: "ada@example.org", country: "US", plan: "pro", seats: 12 } }
    const evaluation = {
      method: "POST" as const,
      path: "/v1/evaluate",
      headers: { authorization: `Bearer ${server.clientKey}`, "content-type": "application/json" },
      body: JSON.stringify({ environment: "production", context })
    }
    const counts = { evaluations: 0, evaluationFailures: 0, writes: 0, writeFailures: 0 }
    let flip = false
    const write = {
      method: "PUT" as const,
      path: "/v1/projects/default/flags/w2-flag-0/targeting",
      headers: { authorization: `Bearer ${server.serverKey}`, "content-type": "application/json" },
      setupRequest: (req: { path: string; body?: string }) => {
        const i = Math.floor(Math.random() * FLAGS)
        flip = !flip
        return { ...req, path: `/v1/projects/default/flags/w2-flag-${i}/targeting`, body: JSON.stringify(w2Targeting(flip)) }
      },
      onResponse: (status: number) => {
        if (status === 200) counts.writes++
        else counts.writeFailures++
      }
    }
    const evaluate = {
      ...evaluation,
      onResponse: (status: number) => {
        if (status === 200) counts.evaluations++
        else counts.evaluationFailures++
      }
    }
    const load = (connections: number, duration: number, request: typeof evaluate | typeof write) =>
      autocannon({ url: `http://127.0.0.1:${server.port}`, connections, duration, requests: [request] })
    const evaluators = Math.round(CONNECTIONS * 0.8)
    // Warm-up (JIT, caches) at a tenth of the connections.
    await Promise.all([load(Math.round(evaluators / 10), 5, evaluate), load(Math.round((CONNECTIONS - evaluators) / 10), 5, write)])
    Object.assign(counts, { evaluations: 0, evaluationFailures: 0, writes: 0, writeFailures: 0 })

    const [evaluationLoad, writeLoad, health] = await Promise.all([
      load(evaluators, DURATION, evaluate),
      load(CONNECTIONS - evaluators, DURATION, write),
      runProbe(server.port, DURATION * 1000 - 2000)
    ])
    const sorted = [...health.latenciesMs].sort((a, b) => a - b)
    return {
      checkout: describeCheckout(checkout),
      evaluationsPerSecond: counts.evaluations / DURATION,
      writesPerSecond: counts.writes / DURATION,
      failures: counts.evaluationFailures + counts.writeFailures,
      timeouts: evaluationLoad.timeouts + writeLoad.timeouts,
      errors: evaluationLoad.errors + writeLoad.errors,
      evaluationP99: evaluationLoad.latency.p99,
      writeP99: writeLoad.latency.p99,
      health: { samples: health.latenciesMs.length + health.timeouts + health.errors, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? Number.NaN, timeouts: health.timeouts, errors: health.errors }
    }
  } finally {
    server.child.kill("SIGTERM")
    await new Promise((r) => server.child.once("exit", r))
    rmSync(dir, { recursive: true, force: true })
  }
}

const main = async () => {
  const checkouts = process.argv.slice(2).map((c) => resolve(c))
  const rows: Array<string> = []
  for (const checkout of checkouts.length === 0 ? [HERE] : checkouts) {
    const r = await measure(checkout)
    const h = r.health
    const ms = (n: number) => (Number.isNaN(n) ? "-" : `${Math.round(n)} ms`)
    rows.push(
      `| ${r.checkout} | ${Math.round(r.evaluationsPerSecond)} | ${r.evaluationP99} ms | ${Math.round(r.writesPerSecond)} | ${r.writeP99} ms | ${r.timeouts} | ${r.errors} | ${r.failures} | ${h.samples} | ${ms(h.p50)} | ${ms(h.p99)} | ${ms(h.max)} | ${h.timeouts} | ${h.errors} |`
    )
    console.error(rows[rows.length - 1])
  }
  console.log(`\nNode ${process.version}, ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${new Date().toISOString()}`)
  console.log(
    `autocannon -d ${DURATION}: ${Math.round(CONNECTIONS * 0.8)} connections POST /v1/evaluate and ${CONNECTIONS - Math.round(CONNECTIONS * 0.8)} PUT targeting, at once; fresh-connection GET /health every ${PROBE_INTERVAL_MS} ms\n`
  )
  console.log("| checkout | evaluations/s | evaluation p99 | writes/s | write p99 | timeouts | errors | non-200 | /health probes | /health p50 | /health p99 | /health max | /health timeouts | /health errors |")
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
  for (const row of rows) console.log(row)
}

const [flag, port, duration] = process.argv.slice(2)
if (flag === "--probe") await probe(Number(port), Number(duration))
else await main()
