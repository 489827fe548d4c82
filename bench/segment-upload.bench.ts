/**
 * Uploading a 1,000,000-key segment list (run by hand, not a test): how long does
 * `PUT /v1/projects/default/segments/big/keys/included` take on SQLite and PostgreSQL, and do the
 * evaluation routes keep answering meanwhile? Targets: under 10 s; evaluations within 50 ms.
 *
 *   npx tsx bench/segment-upload.bench.ts     # KEYS=1000000 ROUNDS=2; PG_URL=postgres://... to use a running server
 *   BACKENDS=sqlite npx tsx bench/segment-upload.bench.ts     # one backend only (sqlite or postgres)
 *   SERVER_ROOT=/path/to/other/checkout npx tsx bench/segment-upload.bench.ts     # serve that checkout's bin/flagport.mjs (an A/B of two revisions)
 *   SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npx tsx bench/segment-upload.bench.ts     # node options for the server (a CPU profile, --trace-gc...)
 *   PROBER=inline npx tsx bench/segment-upload.bench.ts     # probe from the thread that writes the upload (the bench until 2026-12-08)
 *
 * For each backend, a real `flagport serve --init` (bin/flagport.mjs) in a child process, on a fresh
 * SQLite file or an embedded PostgreSQL 15 (fsync on). The bench sends the keys (`user-0000000`...,
 * about 13 MB) chunked in 64 KB pieces as a client streaming a file would, twice (the second a
 * replace of the first: its old keys are deleted after the swap), while a prober on a thread of its
 * own sends `GET /v1/flags/probe/eval` with the client key one at a time every 10 ms, from before the
 * upload starts until it is answered.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { cpus, loadavg, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"
import { startEmbeddedPostgres } from "../test/setup/EmbeddedPostgres.js"
import { freePort } from "./free-port.js"

const HERE = fileURLToPath(new URL("..", import.meta.url))
/** The checkout whose server runs: this one, or SERVER_ROOT (another revision, for an A/B). */
const ROOT = process.env["SERVER_ROOT"] ?? HERE
const KEYS = Number(process.env["KEYS"] ?? 1_000_000)
const ROUNDS = Number(process.env["ROUNDS"] ?? 2)
const BACKENDS = (process.env["BACKENDS"] ?? "sqlite,postgres").split(",")
/** Where the prober runs: `thread` (its own thread, the default) or `inline` (the upload's thread, as before 2026-12-08). */
const PROBER = process.env["PROBER"] ?? "thread"

interface Served {
  readonly child: ChildProcess
  readonly port: number
  readonly serverKey: string
  readonly clientKey: string
}

const serve = async (databaseUrl: string): Promise<Served> => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, HOST: "127.0.0.1", PORT: String(port), NO_COLOR: "1", FLAGPORT_LOG_LEVEL: "warn" }
  delete env["FLAGPORT_PUBLIC_URL"]
  const nodeArgs = (process.env["SERVER_NODE_ARGS"] ?? "").split(" ").filter((arg) => arg !== "")
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, "bin/flagport.mjs"), "serve", "--init"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] })
  // Anything else the server writes (--trace-gc's lines) goes on to the bench's standard error.
  child.stdout!.on("data", (chunk: Buffer) => process.env["SERVER_NODE_ARGS"] !== undefined && process.stderr.write(chunk))
  let stdout = ""
  const keys = await new Promise<{ serverKey: string; clientKey: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no keys and SETUP_URL (printed once listening) within 120 s:\n${stdout}`)), 120_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      const serverKey = /^SERVER_KEY=(\S+)$/m.exec(stdout)?.[1]
      const clientKey = /^CLIENT_KEY=(\S+)$/m.exec(stdout)?.[1]
      if (serverKey !== undefined && clientKey !== undefined && /^SETUP_URL=/m.test(stdout)) {
        clearTimeout(timer)
        resolve({ serverKey, clientKey })
      }
    })
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${stdout}`)))
  })
  return { child, port, ...keys }
}

/** One request with a JSON body (or none); status, body text and milliseconds. */
const send = (agent: Agent, port: number, method: string, path: string, key: string, body?: unknown) =>
  new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const headers: Record<string, string> = { authorization: `Bearer ${key}` }
    if (payload !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) })
    const started = performance.now()
    const req = request({ host: "127.0.0.1", port, path, method, agent, headers }, (res) => {
      let text = ""
      res.on("data", (c: Buffer) => (text += c.toString()))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - started }))
    })
    req.on("error", reject)
    req.end(payload)
  })

/** The upload, chunked (no Content-Length), in 64 KB pieces; the milliseconds to its answer. */
const upload = (port: number, key: string, offset: number) =>
  new Promise<{ status: number; text: string; ms: number }>((resolve, reject) => {
    const started = performance.now()
    const req = request(
      { host: "127.0.0.1", port, method: "PUT", path: "/v1/projects/default/segments/big/keys/included", headers: { authorization: `Bearer ${key}`, "content-type": "text/plain" } },
      (res) => {
        let text = ""
        res.on("data", (c: Buffer) => (text += c.toString()))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - started }))
      }
    )
    req.on("error", reject)
    let i = 0
    const write = () => {
      while (i < KEYS) {
        let piece = ""
        while (piece.length < 65_536 && i < KEYS) piece += `user-${String(offset + i++).padStart(7, "0")}\n`
        if (!req.write(piece)) return void req.once("drain", write)
      }
      req.end()
    }
    write()
  })

const quantile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Prober {
  /** Stops probing; the latencies of the probes answered, in milliseconds. */
  readonly stop: () => Promise<ReadonlyArray<number>>
}

/** Probes from this thread, whose event loop also writes the upload (how the bench measured until 2026-12-08). */
const inlineProber = (agent: Agent, port: number, path: string, key: string): Prober => {
  const probes: Array<number> = []
  let probing = true
  const running = (async () => {
    while (probing) {
      const answer = await send(agent, port, "GET", path, key)
      if (answer.status !== 200) throw new Error(`evaluation answered ${answer.status}: ${answer.text}`)
      probes.push(answer.ms)
      await sleep(10)
    }
  })()
  return { stop: async () => ((probing = false), await running, probes) }
}

/**
 * Probes from a thread of its own: a probe's time is the server's, not the wait for this process's
 * event loop, busy making and writing the upload's pieces. The same probe, one at a time every 10 ms.
 */
const PROBER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads")
const { Agent, request } = require("node:http")
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const probes = []
let probing = true
parentPort.on("message", () => (probing = false))
const probe = () => new Promise((resolve, reject) => {
  const started = performance.now()
  const req = request({ host: "127.0.0.1", port: workerData.port, path: workerData.path, agent, headers: { authorization: "Bearer " + workerData.key } }, (res) => {
    res.resume()
    res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error("evaluation answered " + res.statusCode))))
  })
  req.on("error", reject)
  req.end()
})
;(async () => {
  while (probing) {
    probes.push(await probe())
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  agent.destroy()
  parentPort.postMessage(probes)
})().catch((error) => { throw error })
`
/** Started once the thread runs (so it probes from before the upload starts). */
const threadProber = async (port: number, path: string, key: string): Promise<Prober> => {
  const worker = new Worker(PROBER_SOURCE, { eval: true, workerData: { port, path, key } })
  const answered = new Promise<ReadonlyArray<number>>((resolve, reject) => {
    worker.once("message", resolve)
    worker.once("error", reject)
  })
  await new Promise((resolve) => worker.once("online", resolve))
  return {
    stop: async () => {
      worker.postMessage("stop")
      const probes = await answered
      await worker.terminate()
      return probes
    }
  }
}

const runOn = async (label: string, databaseUrl: string) => {
  const served = await serve(databaseUrl)
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const { port, serverKey, clientKey } = served
    const flag = { key: "probe", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    for (const [path, body] of [["/v1/projects/default/flags", flag], ["/v1/projects/default/segments", { key: "big", name: "Big", conditions: [] }]] as const) {
      const made = await send(agent, port, "POST", path, serverKey, body)
      if (made.status !== 201) throw new Error(`POST ${path}: ${made.status} ${made.text}`)
    }
    const evalPath = "/v1/flags/probe/eval?environment=development&key=u-1"
    for (let i = 0; i < 20; i++) await send(probeAgent, port, "GET", evalPath, clientKey)
    console.error(`${label}: server ready, flag and segment made, uploading`)
    for (let round = 1; round <= ROUNDS; round++) {
      const prober = PROBER === "thread" ? await threadProber(port, evalPath, clientKey) : inlineProber(probeAgent, port, evalPath, clientKey)
      const done = await upload(port, serverKey, round * KEYS)
      const probes = await prober.stop()
      if (done.status !== 200) throw new Error(`upload answered ${done.status}: ${done.text}`)
      console.log(
        `${label}, round ${round}: ${KEYS.toLocaleString("en-US")} keys in ${(done.ms / 1000).toFixed(2)} s (${done.text}); ` +
          `evaluations meanwhile: ${probes.length}, p50 ${quantile(probes, 0.5).toFixed(1)} ms, p99 ${quantile(probes, 0.99).toFixed(1)} ms, max ${Math.max(...probes).toFixed(1)} ms`
      )
    }
  } finally {
    agent.destroy()
    probeAgent.destroy()
    served.child.kill("SIGTERM")
    await new Promise((resolve) => served.child.once("exit", resolve))
  }
}

console.log(`${new Date().toISOString()}, ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}, Node ${process.version}`)
if (BACKENDS.includes("sqlite")) {
  const dir = mkdtempSync(join(tmpdir(), "flagport-upload-bench-"))
  try {
    await runOn("SQLite", `sqlite:${join(dir, "flagport.db")}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
if (BACKENDS.includes("postgres")) {
  const external = process.env["PG_URL"]
  const postgres = external !== undefined ? { url: external, stop: async () => {} } : await startEmbeddedPostgres()
  try {
    await runOn("PostgreSQL", postgres.url)
  } finally {
    await postgres.stop()
  }
}
console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`)
