/**
 * Change-stream benchmark (run by hand): `npx tsx bench/stream.bench.ts [freshness|idle|growth|all]`
 * (default all, which leaves out growth; STREAMS=1000, TRIALS=5, IDLE_COUNTS=0,1000,5000,
 * MINUTES=10 to change the sizes).
 *
 * Each Flagport is a real `flagport serve` process (bin/flagport.mjs); the streams are plain
 * node:http clients in this process, so the server's figures are its own.
 *
 * - freshness: STREAMS open streams on one server (project `default`, environment `production`),
 *   then one targeting change per trial through the management API. For every stream: time from the
 *   write's acknowledgement (its HTTP response) to that stream's event. p50 / p99 / max over every
 *   stream of every trial (max = the last stream of the slowest trial).
 *   SQLite: the write goes to the streaming server itself. PostgreSQL (an embedded server started
 *   here): the write goes to a second `flagport serve` process on the same database, and reaches
 *   the streaming one through LISTEN/NOTIFY.
 * - idle: the streaming server's RSS (/proc/<pid>/status) with 0, 1,000 and 5,000 open streams,
 *   each reading taken after the streams are open and 3 s of quiet; the per-stream cost is the
 *   slope between two counts.
 * - growth: STREAMS open streams left idle for MINUTES minutes (heartbeats only, every 15 s): the
 *   server's RSS every minute, and the heartbeats one stream received.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { mkdtempSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { cpus, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { startEmbeddedPostgres } from "../test/setup/EmbeddedPostgres.js"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const BIN = join(ROOT, "bin/flagport.mjs")
const STREAMS = Number(process.env["STREAMS"] ?? 1_000)
const TRIALS = Number(process.env["TRIALS"] ?? 5)
const IDLE_COUNTS = (process.env["IDLE_COUNTS"] ?? "0,1000,5000").split(",").map(Number)

interface Flagport {
  readonly url: string
  readonly child: ChildProcess
  readonly stdout: () => string
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    void import("node:net").then(({ createServer }) => {
      const server = createServer()
      server.once("error", reject)
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        server.close(() => resolve(port))
      })
    })
  })

const serve = async (databaseUrl: string, args: ReadonlyArray<string>): Promise<Flagport> => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, HOST: "127.0.0.1", PORT: String(port), NO_COLOR: "1" }
  const child = spawn(process.execPath, [BIN, "serve", ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] })
  let stdout = ""
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`flagport serve exited: ${stdout}`)
    try {
      if ((await fetch(`${url}/health`)).ok) break
    } catch {
      // not yet listening
    }
    if (attempt > 600) throw new Error("flagport serve did not come up")
    await new Promise((r) => setTimeout(r, 200))
  }
  return { url, child, stdout: () => stdout }
}

const stop = async (flagport: Flagport) => {
  flagport.child.kill("SIGTERM")
  await new Promise((r) => flagport.child.once("exit", r))
}

const keysOf = (stdout: string): { server: string; client: string } => {
  const line = (name: string) => new RegExp(`^${name}=(.*)$`, "m").exec(stdout)?.[1]
  const server = line("SERVER_KEY")
  const client = line("CLIENT_KEY")
  if (server === undefined || client === undefined) throw new Error(`no keys in: ${stdout}`)
  return { server, client }
}

/** One open stream: counts its events and remembers when the last one came. */
interface Stream {
  events: number
  lastEventAt: number
  readonly close: () => void
}

const openStream = (url: string, clientKey: string): Promise<Stream> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/stream?environment=production`, { headers: { authorization: `Bearer ${clientKey}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`))
      const stream: Stream = { events: 0, lastEventAt: 0, close: () => req.destroy() }
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => {
        // Events are small and written whole: one `event: message` line per event.
        let at = chunk.indexOf("event: message")
        while (at !== -1) {
          stream.events++
          stream.lastEventAt = performance.now()
          at = chunk.indexOf("event: message", at + 1)
        }
      })
      resolve(stream)
    })
    req.on("error", reject)
    req.end()
  })

const openStreams = async (url: string, clientKey: string, count: number): Promise<Array<Stream>> => {
  const streams: Array<Stream> = []
  for (let opened = 0; opened < count; opened += 100) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(100, count - opened) }, () => openStream(url, clientKey)))))
  }
  // Every stream has had its event on connect.
  while (streams.some((s) => s.events === 0)) await new Promise((r) => setTimeout(r, 20))
  return streams
}

const api = async (url: string, key: string, method: string, path: string, body: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
}

const quantile = (sorted: ReadonlyArray<number>, q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

/** STREAMS streams on `streaming`, TRIALS targeting changes through `writing`; per-stream delays after each acknowledgement. */
const freshness = async (streaming: Flagport, writing: Flagport, keys: { server: string; client: string }) => {
  await api(writing.url, keys.server, "POST", "/v1/projects/default/flags", {
    key: "bench",
    name: "bench",
    type: "boolean",
    variations: [{ key: "on", value: true }, { key: "off", value: false }]
  })
  await new Promise((r) => setTimeout(r, 500))
  const streams = await openStreams(streaming.url, keys.client, STREAMS)
  const delays: Array<number> = []
  const lastPerTrial: Array<number> = []
  for (let trial = 0; trial < TRIALS; trial++) {
    await new Promise((r) => setTimeout(r, 500))
    const before = streams.map((s) => s.events)
    await api(writing.url, keys.server, "PUT", "/v1/projects/default/flags/bench/targeting", {
      environment: "production",
      enabled: trial % 2 === 0,
      defaultVariationKey: "on",
      offVariationKey: "off",
      rules: []
    })
    const acknowledged = performance.now()
    const deadline = acknowledged + 10_000
    while (streams.some((s, i) => s.events === before[i]) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    const late = streams.filter((s, i) => s.events === before[i]).length
    if (late > 0) throw new Error(`${late} streams got no event within 10 s`)
    const trialDelays = streams.map((s) => s.lastEventAt - acknowledged)
    delays.push(...trialDelays)
    lastPerTrial.push(Math.max(...trialDelays))
    const extra = streams.filter((s, i) => s.events > before[i]! + 1).length
    if (extra > 0) throw new Error(`${extra} streams got more than one event for one change`)
  }
  for (const s of streams) s.close()
  const sorted = [...delays].sort((a, b) => a - b)
  return {
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1)!,
    lastPerTrial
  }
}

const rssMb = (pid: number): number => {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return Number(line![1]) / 1024
}

const idle = async (server: Flagport, clientKey: string) => {
  const readings: Array<{ streams: number; rss: number }> = []
  let open: Array<Stream> = []
  for (const count of IDLE_COUNTS) {
    if (count > open.length) open.push(...(await openStreams(server.url, clientKey, count - open.length)))
    await new Promise((r) => setTimeout(r, 3_000))
    readings.push({ streams: count, rss: rssMb(server.child.pid!) })
  }
  for (const s of open) s.close()
  open = []
  return readings
}

const growth = async (server: Flagport, clientKey: string) => {
  const minutes = Number(process.env["MINUTES"] ?? 10)
  const streams = await openStreams(server.url, clientKey, STREAMS)
  let pings = 0
  // Count one stream's heartbeats: proof the timer keeps running.
  const probe = await new Promise<() => void>((resolve, reject) => {
    const req = httpRequest(`${server.url}/v1/stream?environment=production`, { headers: { authorization: `Bearer ${clientKey}` }, agent: false }, (res) => {
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (pings += chunk.split(": ping").length - 1))
      resolve(() => req.destroy())
    })
    req.on("error", reject)
    req.end()
  })
  const readings: Array<number> = [rssMb(server.child.pid!)]
  for (let minute = 1; minute <= minutes; minute++) {
    await new Promise((r) => setTimeout(r, 60_000))
    readings.push(rssMb(server.child.pid!))
  }
  probe()
  for (const s of streams) s.close()
  return { readings, pings }
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`

const main = async () => {
  const mode = process.argv[2] ?? "all"
  console.log(`# stream benchmark: ${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}, ${new Date().toISOString()}`)
  console.log(`load average at start: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`)
  if (mode === "freshness" || mode === "all") {
    const sqliteUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), "flagport-stream-bench-")), "flagport.db")}`
    const sqlite = await serve(sqliteUrl, ["--init"])
    try {
      const result = await freshness(sqlite, sqlite, keysOf(sqlite.stdout()))
      console.log(`SQLite, ${STREAMS} streams, ${TRIALS} changes: p50 ${fmt(result.p50)}, p99 ${fmt(result.p99)}, max ${fmt(result.max)}; last stream per trial: ${result.lastPerTrial.map(fmt).join(", ")}`)
    } finally {
      await stop(sqlite)
    }
    const postgres = await startEmbeddedPostgres()
    try {
      const first = await serve(postgres.url, ["--init"])
      const second = await serve(postgres.url, [])
      try {
        const result = await freshness(first, second, keysOf(first.stdout()))
        console.log(`PostgreSQL, ${STREAMS} streams, ${TRIALS} changes written by a second process: p50 ${fmt(result.p50)}, p99 ${fmt(result.p99)}, max ${fmt(result.max)}; last stream per trial: ${result.lastPerTrial.map(fmt).join(", ")}`)
      } finally {
        await stop(second)
        await stop(first)
      }
    } finally {
      await postgres.stop()
    }
  }
  if (mode === "growth") {
    const sqliteUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), "flagport-stream-bench-")), "flagport.db")}`
    const server = await serve(sqliteUrl, ["--init"])
    try {
      const { pings, readings } = await growth(server, keysOf(server.stdout()).client)
      console.log(`growth: ${STREAMS} idle streams, RSS by minute (MB): ${readings.map((r) => r.toFixed(1)).join(", ")}; heartbeats on one stream: ${pings}`)
    } finally {
      await stop(server)
    }
  }
  if (mode === "idle" || mode === "all") {
    const sqliteUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), "flagport-stream-bench-")), "flagport.db")}`
    const server = await serve(sqliteUrl, ["--init"])
    try {
      const readings = await idle(server, keysOf(server.stdout()).client)
      for (const r of readings) console.log(`idle: ${r.streams} streams, RSS ${r.rss.toFixed(1)} MB`)
      for (let i = 1; i < readings.length; i++) {
        const a = readings[i - 1]!
        const b = readings[i]!
        if (b.streams > a.streams) console.log(`  ${a.streams} -> ${b.streams}: ${(((b.rss - a.rss) * 1024) / (b.streams - a.streams)).toFixed(1)} KB per stream`)
      }
    } finally {
      await stop(server)
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
