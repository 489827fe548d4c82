/**
 * Mixed-load benchmark on SQLite (run by hand):
 *
 *   npx tsx bench/mixed-load.bench.ts [CHECKOUT...]
 *
 * For each checkout (default: this one), in turn: `flagport serve --init` from that checkout (its
 * default runner, as a user starts it) on a fresh SQLite file, 50 flags shaped like W2 of the
 * foundation issue and a second project. Then, after a warm-up:
 *
 * - evaluation alone: BENCH_CONNECTIONS connections (default 500) sending POST /v1/evaluate for a
 *   third of BENCH_DURATION (at least 10 s), the baseline;
 * - the mix, for BENCH_DURATION seconds (default 60), BENCH_CONNECTIONS connections at once: 80%
 *   POST /v1/evaluate and 5% GET /v1/config (client key), 5% PUT targeting of a random flag, 5%
 *   PATCH of a random flag and 5% POST of a new flag in the other project (server key). Each kind
 *   has its own connections, so evaluating clients never wait behind an administrator's write.
 *   BENCH_MIX=80,5,5,5,5 sets those shares (a kind at 0 is not sent), to tell the kinds' costs apart.
 *
 * Meanwhile a separate process (started before the warm-up, see `startProbe`) opens a fresh TCP
 * connection BENCH_PROBE_FIRST_MS (default 1000) after the mix starts and every
 * BENCH_PROBE_INTERVAL_MS (default 5000) after, and times GET /health on it (15 s timeout), which
 * is what a load balancer's probe or a new client sees, and the parent samples every second the listening socket's queue (`ss`, Recv-Q:
 * connections the kernel holds that Node has not accepted) and the server's RSS. Prints one
 * Markdown row per checkout.
 *
 * Memory (issue: peak RSS under the mix at most twice the evaluation-only peak, and flat after
 * warm-up): RSS is sampled every second during evaluation alone too; the row gives both peaks,
 * their ratio, and the growth after the mix's first BENCH_MEMORY_WARMUP_S seconds (default 10:
 * the highest sample after it minus the sample at it). BENCH_MEMORY=1 also loads
 * bench/memory-sampler.mjs into the server (`--import`), and prints the server's V8 heap (used /
 * reserved), external memory and ArrayBuffers every 10 s of the mix, to tell which one grows.
 * BENCH_MEMORY_KEEP=DIR keeps the server's whole log there (a line a second: each V8 heap space,
 * the garbage collections of that second, and a line per SQLite worker thread with its own heap),
 * with the times the phases began beside it; FLAGPORT_BENCH_PROMOTED_PROFILE=FILE (see
 * bench/memory-sampler.mjs) profiles what is promoted to the old space and then collected.
 *
 * Passing two checkouts (e.g. an extract of main and this one) measures before and after on the
 * same machine in one run. Each server runs through its checkout's `bin/flagport.mjs`, the public
 * command, so internal moves between the two versions do not matter.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { cpus, tmpdir, totalmem } from "node:os"
import { basename, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import autocannon from "autocannon"
import { PROBE_FIRST_MS, PROBE_INTERVAL_MS, probeOnce, serverSideOfProbes, startProbe } from "./fresh-connection-probe.js"

const SELF = fileURLToPath(import.meta.url)
const HERE = resolve(SELF, "../..")
const DURATION = Number(process.env["BENCH_DURATION"] ?? 60)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 500)
const FLAGS = 50
/** BENCH_REQUEST_LOG=1: the server writes its JSON request log, and each probe's server-side times are printed. */
const REQUEST_LOG = process.env["BENCH_REQUEST_LOG"] === "1"
/** BENCH_MEMORY=1: the server's heap, external memory and ArrayBuffers, sampled from inside (bench/memory-sampler.mjs). */
const MEMORY = process.env["BENCH_MEMORY"] === "1"
const MEMORY_WARMUP_S = Number(process.env["BENCH_MEMORY_WARMUP_S"] ?? 10)
/** BENCH_MIX: the mix's shares of the connections in percent, for evaluate, config, PUT targeting, PATCH, POST (default 80,5,5,5,5). */
const MIX = (process.env["BENCH_MIX"] ?? "80,5,5,5,5").split(",").map(Number)
if (MIX.length !== 5 || MIX.some((n) => !Number.isFinite(n) || n < 0)) throw new Error("BENCH_MIX: five percentages (evaluate, config, PUT, PATCH, POST)")
const SAMPLER = join(resolve(fileURLToPath(import.meta.url), ".."), "memory-sampler.mjs")

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

/** Each server's stdout so far, by port (its request log, with BENCH_REQUEST_LOG=1). */
const serverOutputs = new Map<number, () => string>()

interface Server {
  readonly child: ChildProcess
  readonly port: number
  readonly serverKey: string
  readonly clientKey: string
}

/** `flagport serve --init` from a checkout on a fresh SQLite file; resolves once /health answers. */
const startServer = async (checkout: string, dir: string): Promise<Server> => {
  const port = await freePort()
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") go to the server's node only.
  const nodeArgs = (process.env["BENCH_SERVER_NODE_ARGS"] ?? "").split(" ").filter((a) => a !== "")
  if (MEMORY) nodeArgs.push(`--import=${pathToFileURL(SAMPLER).href}`)
  const child = spawn(process.execPath, [...nodeArgs, join(checkout, "bin/flagport.mjs"), "serve", "--init"], {
    cwd: checkout,
    env: { ...process.env, FLAGPORT_BENCH_MEMORY_LOG: MEMORY ? join(dir, "memory.jsonl") : "", DATABASE_URL: `sqlite:${join(dir, "bench.db")}`, PORT: String(port), HOST: "127.0.0.1", ...(REQUEST_LOG ? { FLAGPORT_LOG_LEVEL: "info", FLAGPORT_LOG_FORMAT: "json" } : { FLAGPORT_LOG_LEVEL: "warn" }) },
    stdio: ["ignore", "pipe", "inherit"]
  })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString()
  })
  serverOutputs.set(port, () => output)
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
  // The creates of the mixed load land in a project of their own, as another team's would.
  await call("POST", "/v1/projects", { id: "other", name: "Other" })
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

const describeCheckout = (checkout: string) => {
  try {
    return `${checkout} @ ${execFileSync("git", ["-C", checkout, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()}`
  } catch {
    return checkout
  }
}

/** Listen-queue depth (Recv-Q of the listening socket: connections accepted by the kernel, not yet by Node) and the server's RSS. */
const sampleServer = (port: number) => {
  const listenQueue: Array<number> = []
  const rssMiB: Array<number> = []
  let pid: number | undefined
  const timer = setInterval(() => {
    try {
      const line = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" }).trim()
      const fields = line.split(/\s+/)
      if (fields[1] !== undefined) listenQueue.push(Number(fields[1]))
      pid ??= Number(/pid=(\d+)/.exec(line)?.[1])
      const status = readFileSync(`/proc/${pid}/status`, "utf8")
      const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1])
      if (Number.isFinite(kib)) rssMiB.push(Math.round(kib / 1024))
    } catch {
      // the server is going away; the samples so far stand
    }
  }, 1000)
  return { listenQueue, rssMiB, stop: () => clearInterval(timer) }
}

const measure = async (checkout: string) => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-mixed-"))
  const server = await startServer(checkout, dir)
  /** When each phase began (ms since the epoch), written beside the kept memory log. */
  const phases: Record<string, number> = { started: Date.now() }
  try {
    await seed(server)
    const context = { key: "user-42", attributes: { email: "ada@example.org", country: "US", plan: "pro", seats: 12 } }
    const client = { authorization: `Bearer ${server.clientKey}`, "content-type": "application/json" }
    const admin = { authorization: `Bearer ${server.serverKey}`, "content-type": "application/json" }
    const counts = new Map<string, { ok: number; failed: number }>()
    const count = (kind: string) => (status: number) => {
      const c = counts.get(kind) ?? { ok: 0, failed: 0 }
      if (status >= 200 && status < 300) c.ok++
      else c.failed++
      counts.set(kind, c)
    }
    let flip = false
    let created = 0
    const runId = Date.now().toString(36)
    const evaluate = { method: "POST" as const, path: "/v1/evaluate", headers: client, body: JSON.stringify({ environment: "production", context }), onResponse: count("evaluate") }
    const config = { method: "GET" as const, path: "/v1/config?environment=production", headers: client, onResponse: count("config") }
    const putTargeting = {
      method: "PUT" as const,
      path: "/v1/projects/default/flags/w2-flag-0/targeting",
      headers: admin,
      setupRequest: (req: { path: string; body?: string }) => {
        flip = !flip
        return { ...req, path: `/v1/projects/default/flags/w2-flag-${Math.floor(Math.random() * FLAGS)}/targeting`, body: JSON.stringify(w2Targeting(flip)) }
      },
      onResponse: count("put targeting")
    }
    const patch = {
      method: "PATCH" as const,
      path: "/v1/projects/default/flags/w2-flag-0",
      headers: admin,
      setupRequest: (req: { path: string; body?: string }) => ({
        ...req,
        path: `/v1/projects/default/flags/w2-flag-${Math.floor(Math.random() * FLAGS)}`,
        body: JSON.stringify({ description: `touched at ${Date.now()}` })
      }),
      onResponse: count("patch")
    }
    const create = {
      method: "POST" as const,
      path: "/v1/projects/other/flags",
      headers: admin,
      setupRequest: (req: { path: string; body?: string }) => {
        const key = `created-${runId}-${created++}`
        return { ...req, body: JSON.stringify({ key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }) }
      },
      onResponse: count("create")
    }
    type Request = typeof evaluate | typeof config | typeof putTargeting | typeof patch | typeof create
    // A kind given no connection (BENCH_MIX) is not sent: its result is empty.
    const load = (connections: number, duration: number, request: Request) =>
      connections === 0
        ? Promise.resolve({ timeouts: 0, errors: 0, latency: { p99: 0 } } as Awaited<ReturnType<typeof autocannon>>)
        : autocannon({ url: `http://127.0.0.1:${server.port}`, connections, duration, requests: [request] })
    // The connections' shares in percent: evaluate, config, PUT targeting, PATCH, POST (the rest goes to evaluate).
    const shares = MIX.map((percent) => Math.round((CONNECTIONS * percent) / 100))
    shares[0] = CONNECTIONS - shares.slice(1).reduce((a, b) => a + b, 0)
    const mix: ReadonlyArray<readonly [number, Request]> = [
      [shares[0]!, evaluate],
      [shares[1]!, config],
      [shares[2]!, putTargeting],
      [shares[3]!, patch],
      [shares[4]!, create]
    ]

    const probeMs = DURATION * 1000 - 2000
    const warmProbe = process.env["BENCH_PROBE_COLD"] === "1" ? undefined : startProbe(server.port, probeMs, true)
    await warmProbe?.ready
    // Warm-up (JIT, caches) at a tenth of the connections.
    await Promise.all(mix.map(([connections, request]) => load(connections === 0 ? 0 : Math.max(1, Math.round(connections / 10)), 5, request)))

    // Evaluation alone, every connection, for the ratio the issue asks for.
    counts.clear()
    const aloneSeconds = Math.max(10, Math.round(DURATION / 3))
    phases["alone"] = Date.now()
    const aloneSamples = sampleServer(server.port)
    const alone = await load(CONNECTIONS, aloneSeconds, evaluate)
    aloneSamples.stop()
    const evaluationsAlone = (counts.get("evaluate")?.ok ?? 0) / aloneSeconds

    counts.clear()
    const samples = sampleServer(server.port)
    const mixStartedAt = Date.now()
    phases["mix"] = mixStartedAt
    const [results, health] = await Promise.all([
      Promise.all(mix.map(([connections, request]) => load(connections, DURATION, request))),
      (warmProbe ?? startProbe(server.port, probeMs, false)).run()
    ])
    samples.stop()
    phases["end"] = Date.now()
    const sorted = [...health.latenciesMs].sort((a, b) => a - b)
    const perSecond = (kind: string) => Math.round((counts.get(kind)?.ok ?? 0) / DURATION)
    const failed = [...counts.values()].reduce((n, c) => n + c.failed, 0)
    const rss = samples.rssMiB
    const aloneRssPeak = Math.max(0, ...aloneSamples.rssMiB)
    const mixRssPeak = Math.max(0, ...rss)
    const atWarmUp = rss[MEMORY_WARMUP_S]
    const afterWarmUp = rss.slice(MEMORY_WARMUP_S)
    // The server's own samples (BENCH_MEMORY=1), one every 10 s of the mix: heap used / reserved, external, ArrayBuffers.
    const inside = MEMORY
      ? readFileSync(join(dir, "memory.jsonl"), "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as { at: number; thread?: number; rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number })
          .filter((m) => m.thread === undefined && m.at >= mixStartedAt)
          .filter((_, i, all) => i % 10 === 0 || i === all.length - 1)
          .map((m) => `${m.heapUsed}/${m.heapTotal} ${m.external} ${m.arrayBuffers}`)
          .join("; ")
      : "-"
    return {
      checkout: describeCheckout(checkout),
      evaluationsAlone: Math.round(evaluationsAlone),
      aloneTimeouts: alone.timeouts,
      evaluationsPerSecond: perSecond("evaluate"),
      configsPerSecond: perSecond("config"),
      writesPerSecond: perSecond("put targeting") + perSecond("patch") + perSecond("create"),
      failures: failed,
      timeouts: results.reduce((n, r) => n + r.timeouts, 0),
      errors: results.reduce((n, r) => n + r.errors, 0),
      evaluationP99: results[0]!.latency.p99,
      writeP99: Math.max(results[2]!.latency.p99, results[3]!.latency.p99, results[4]!.latency.p99),
      listenQueueMax: Math.max(0, ...samples.listenQueue),
      // Every tenth second's sample and the last: flat after warm-up, or growing.
      rss: [...rss.filter((_, i) => i % 10 === 0), rss[rss.length - 1] ?? "-"].join(", "),
      aloneRssPeak,
      mixRssPeak,
      rssRatio: aloneRssPeak === 0 ? Number.NaN : mixRssPeak / aloneRssPeak,
      growthAfterWarmUp: atWarmUp === undefined ? Number.NaN : Math.max(...afterWarmUp) - atWarmUp,
      inside,
      health: {
        all: health.latenciesMs,
        connect: health.connectMs,
        startupMs: health.startupMs,
        warm: health.warm,
        max: sorted[sorted.length - 1] ?? Number.NaN,
        timeouts: health.timeouts,
        errors: health.errors
      }
    }
  } finally {
    if (REQUEST_LOG) console.error(serverSideOfProbes(serverOutputs.get(server.port)?.() ?? "").join("\n"))
    server.child.kill("SIGTERM")
    await new Promise((r) => server.child.once("exit", r))
    // BENCH_MEMORY_KEEP=DIR: the server's per-second memory log is kept there (one file per checkout).
    const keep = process.env["BENCH_MEMORY_KEEP"]
    if (MEMORY && keep !== undefined && keep !== "") {
      mkdirSync(keep, { recursive: true })
      const name = `memory-${basename(checkout)}-${Date.now()}`
      copyFileSync(join(dir, "memory.jsonl"), join(keep, `${name}.jsonl`))
      writeFileSync(join(keep, `${name}.phases.json`), JSON.stringify(phases))
    }
    rmSync(dir, { recursive: true, force: true })
  }
}

const main = async () => {
  const checkouts = process.argv.slice(2).map((c) => resolve(c))
  const rows: Array<string> = []
  for (const checkout of checkouts.length === 0 ? [HERE] : checkouts) {
    const r = await measure(checkout)
    const h = r.health
    const ms = (n: number) => (Number.isNaN(n) ? "-" : `${Math.round(n)}`)
    rows.push(
      `| ${r.checkout} | ${r.evaluationsAlone} | ${r.evaluationsPerSecond} (${Math.round((100 * r.evaluationsPerSecond) / r.evaluationsAlone)}%) | ${r.evaluationP99} ms | ${r.configsPerSecond} | ${r.writesPerSecond} | ${r.writeP99} ms | ${r.timeouts} | ${r.errors} | ${r.failures} | ${h.all.map(ms).join(", ")} ms | ${h.connect.map(ms).join(", ")} ms | ${h.warm ? "warm" : `cold, started in ${h.startupMs} ms`} | ${h.timeouts} | ${r.listenQueueMax} | ${r.rss} | ${r.aloneRssPeak} | ${r.mixRssPeak} (${r.rssRatio.toFixed(2)}x) | ${ms(r.growthAfterWarmUp)} | ${r.inside} |`
    )
    console.error(rows[rows.length - 1])
  }
  console.log(`\nNode ${process.version}, ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${new Date().toISOString()}`)
  console.log(`autocannon -d ${DURATION}, ${CONNECTIONS} connections: ${MIX[0]}% POST /v1/evaluate, ${MIX[1]}% GET /v1/config, ${MIX[2]}% PUT targeting, ${MIX[3]}% PATCH, ${MIX[4]}% POST flags in another project; fresh-connection GET /health ${PROBE_FIRST_MS} ms into the mix, then every ${PROBE_INTERVAL_MS} ms\n`)
  console.log("| checkout | evaluations/s alone | evaluations/s mixed | evaluation p99 | configs/s | writes/s | write p99 | timeouts | errors | non-2xx | fresh /health (each probe) | of which TCP connect | probe process | /health timeouts | listen queue max | RSS every 10 s (MiB) | RSS peak alone | RSS peak mixed (ratio) | RSS growth after the first ${MEMORY_WARMUP_S} s | heap used/reserved, external, ArrayBuffers every 10 s (MiB) |")
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
  for (const row of rows) console.log(row)
}

await main()
