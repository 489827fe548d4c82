/**
 * A sign-in flood (run by hand, not a test): while 1,000 `POST /v1/auth/login` with made-up emails
 * arrive, 100 at a time, do `/health` and evaluations keep answering quickly, and can a real person
 * still sign in? Targets: `/health` and evaluations within 50 ms at p99, a real sign-in within 2 s.
 *
 *   npx tsx bench/signin-flood.bench.ts     # FLOOD=1000 CONCURRENCY=100; ROOTS=label=/path,... to compare checkouts;
 *                                           # SHAPES="no flood;1,000 addresses" for some shapes only
 *
 * For each checkout (ROOTS; this one by default) and each shape of flood, a real
 * `flagport serve --init` (bin/flagport.mjs) on a fresh SQLite file, on 127.0.0.1, with
 * FLAGPORT_TRUST_PROXY=loopback so that `X-Forwarded-For` gives each request the client address
 * a proxy would report:
 *
 * - no flood: the same probes and sign-in for 3 s with no flood (the baseline of this run, on a
 *   machine other work may be loading: compare the floods' figures with it, as ratios);
 * - one address: the whole flood comes from 198.51.100.7;
 * - 1,000 addresses: each request from its own address (a botnet; no per-address budget helps),
 *   the real sign-in from a browser without a device cookie (its first here): it waits for a
 *   place in the ordinary queue like everyone else;
 * - 1,000 addresses, device cookie: the same flood, the real sign-in presenting the device cookie
 *   its setup set (a browser that signed in before), which takes the device lane.
 *
 * Meanwhile a prober sends, one at a time every 10 ms, `GET /health` and an evaluation
 * (`GET /v1/flags/probe/eval` with the client key) alternately, and 100 ms into the flood the
 * first admin (`admin@localhost`, from 192.0.2.10) signs in with the right password, retrying after
 * `Retry-After` on a 429 or 503; its time is from its first request to its 200.
 *
 * Also printed: the server's event-loop CPU per flood request (its main thread's time on a CPU
 * from /proc over the flood, divided by FLOOD; the probes and the real sign-in are in it too).
 * FLOOD_PROFILE_DIR=dir writes a CPU profile of each server.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { cpus, loadavg, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "./free-port.js"

const HERE = fileURLToPath(new URL("..", import.meta.url))
const FLOOD = Number(process.env["FLOOD"] ?? 1000)
const CONCURRENCY = Number(process.env["CONCURRENCY"] ?? 100)
const PASSWORD = "the right password, long enough"
/** FLOOD_PROFILE_DIR=dir: a CPU profile of each server (written when it exits). */
const PROFILE_DIR = process.env["FLOOD_PROFILE_DIR"]
const ROOTS: ReadonlyArray<readonly [string, string]> = (process.env["ROOTS"] ?? `this=${HERE}`)
  .split(",")
  .map((item) => item.split("=") as [string, string])

interface Served {
  readonly child: ChildProcess
  readonly port: number
  readonly setupToken: string
  readonly serverKey: string
  readonly clientKey: string
}

/** `flagport serve --init` of the checkout at `root` on a fresh SQLite file; resolves once it printed its keys and setup link. */
const serve = async (root: string, dir: string): Promise<Served> => {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, "flagport.db")}`,
    HOST: "127.0.0.1",
    PORT: String(port),
    NO_COLOR: "1",
    FLAGPORT_TRUST_PROXY: "loopback",
    FLAGPORT_LOG_LEVEL: "warn"
  }
  delete env["FLAGPORT_PUBLIC_URL"]
  const profile = PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]
  const child = spawn(process.execPath, [...profile, join(root, "bin/flagport.mjs"), "serve", "--init"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] })
  let stdout = ""
  const found = await new Promise<Omit<Served, "child" | "port">>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no keys and SETUP_URL within 120 s:\n${stdout}`)), 120_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      const setupToken = /^SETUP_URL=.*#token=(\S+)$/m.exec(stdout)?.[1]
      const serverKey = /^SERVER_KEY=(\S+)$/m.exec(stdout)?.[1]
      const clientKey = /^CLIENT_KEY=(\S+)$/m.exec(stdout)?.[1]
      if (setupToken !== undefined && serverKey !== undefined && clientKey !== undefined) {
        clearTimeout(timer)
        resolve({ setupToken: decodeURIComponent(setupToken), serverKey, clientKey })
      }
    })
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${stdout}`)))
  })
  return { child, port, ...found }
}

interface Answer {
  readonly status: number
  readonly ms: number
  readonly retryAfter: number
  /** The `name=value` of each `Set-Cookie`. */
  readonly cookies: ReadonlyArray<string>
}

/** One request; the status, the milliseconds from sending to the end of the answer, and `Retry-After`. */
const send = (agent: Agent, port: number, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const started = performance.now()
    const all = payload === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }
    const req = request({ host: "127.0.0.1", port, path, method, agent, headers: all }, (res) => {
      res.resume()
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          ms: performance.now() - started,
          retryAfter: Number(res.headers["retry-after"] ?? 1),
          cookies: (res.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!)
        })
      )
    })
    req.on("error", reject)
    req.end(payload)
  })

const quantile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Shape = "no flood" | "one address" | "1,000 addresses" | "1,000 addresses, device cookie"
const SHAPES: ReadonlyArray<Shape> = (process.env["SHAPES"]?.split(";") as Array<Shape> | undefined) ??
  ["no flood", "one address", "1,000 addresses", "1,000 addresses, device cookie"]
const floodAddress = (shape: Shape, i: number) => (shape === "one address" ? "198.51.100.7" : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
/** How long the probes run without a flood. */
const BASELINE_MS = 3_000

/** Seconds on a CPU of a process's main thread (its event loop), from /proc (Linux); undefined elsewhere. */
const mainThreadCpu = (pid: number | undefined): number | undefined => {
  const file = `/proc/${pid}/task/${pid}/schedstat`
  return pid === undefined || !existsSync(file) ? undefined : Number(readFileSync(file, "utf8").split(" ")[0]) / 1e9
}

interface Run {
  /** The server's event-loop CPU per flood request (µs), probes and the real sign-in included. */
  readonly loopUsPerRequest: number | undefined
  readonly health: Array<number>
  readonly evaluation: Array<number>
  readonly signInMs: number
  readonly signInTries: number
  readonly floodStatuses: Record<number, number>
  readonly floodSeconds: number
}

const runOnce = async (root: string, shape: Shape): Promise<Run> => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-flood-bench-"))
  const served = await serve(root, dir)
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 })
  const userAgent = new Agent({ keepAlive: true, maxSockets: 1 })
  const floodAgent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  try {
    const { port } = served
    const setup = await send(userAgent, port, "POST", "/v1/auth/setup", { "x-forwarded-for": "192.0.2.10" }, { token: served.setupToken, password: PASSWORD })
    if (setup.status !== 200) throw new Error(`POST /v1/auth/setup answered ${setup.status}`)
    const deviceCookie = setup.cookies.find((cookie) => cookie.startsWith("flagport_device="))
    if (shape === "1,000 addresses, device cookie" && deviceCookie === undefined) throw new Error("the setup set no device cookie")
    const userHeaders = { "x-forwarded-for": "192.0.2.10", ...(shape === "1,000 addresses, device cookie" ? { cookie: deviceCookie! } : {}) }
    const flag = { key: "probe", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    const made = await send(probeAgent, port, "POST", "/v1/projects/default/flags", { authorization: `Bearer ${served.serverKey}` }, flag)
    if (made.status !== 201) throw new Error(`creating the probe flag answered ${made.status}`)
    const evalPath = "/v1/flags/probe/eval?environment=development&key=user-1"
    const evalHeaders = { authorization: `Bearer ${served.clientKey}` }
    for (let i = 0; i < 20; i++) {
      await send(probeAgent, port, "GET", "/health", {})
      const warm = await send(probeAgent, port, "GET", evalPath, evalHeaders)
      if (warm.status !== 200) throw new Error(`the evaluation answered ${warm.status}`)
    }

    let flooding = true
    const floodStatuses: Record<number, number> = {}
    const cpuBefore = mainThreadCpu(served.child.pid)
    const floodStarted = performance.now()
    let next = 0
    const worker = async () => {
      while (shape !== "no flood" && next < FLOOD) {
        const i = next++
        const answer = await send(floodAgent, port, "POST", "/v1/auth/login", { "x-forwarded-for": floodAddress(shape, i) }, {
          email: `made-up-${i}@example.com`,
          password: "a password nobody has"
        })
        floodStatuses[answer.status] = (floodStatuses[answer.status] ?? 0) + 1
      }
    }
    const flood = Promise.all([...Array.from({ length: CONCURRENCY }, worker), shape === "no flood" ? sleep(BASELINE_MS) : undefined]).then(() => {
      flooding = false
      return (performance.now() - floodStarted) / 1000
    })

    const health: Array<number> = []
    const evaluation: Array<number> = []
    const probe = (async () => {
      for (let i = 0; flooding; i++) {
        if (i % 2 === 0) health.push((await send(probeAgent, port, "GET", "/health", {})).ms)
        else evaluation.push((await send(probeAgent, port, "GET", evalPath, evalHeaders)).ms)
        await sleep(10)
      }
    })()

    await sleep(100)
    const signInStarted = performance.now()
    let signInTries = 0
    for (;;) {
      signInTries++
      const answer = await send(userAgent, port, "POST", "/v1/auth/login", userHeaders, { email: "admin@localhost", password: PASSWORD })
      if (answer.status === 200) break
      if (answer.status !== 429 && answer.status !== 503) throw new Error(`the real sign-in answered ${answer.status}`)
      if (performance.now() - signInStarted > 120_000) throw new Error("the real sign-in did not get in within 120 s")
      await sleep(answer.retryAfter * 1000)
    }
    const signInMs = performance.now() - signInStarted
    const floodSeconds = await flood
    const cpuAfter = mainThreadCpu(served.child.pid)
    await probe
    const loopUsPerRequest = cpuBefore === undefined || cpuAfter === undefined || shape === "no flood" ? undefined : ((cpuAfter - cpuBefore) * 1e6) / FLOOD
    return { health, evaluation, signInMs, signInTries, floodStatuses, floodSeconds, loopUsPerRequest }
  } finally {
    for (const agent of [probeAgent, userAgent, floodAgent]) agent.destroy()
    served.child.kill("SIGTERM")
    await new Promise((resolve) => (served.child.exitCode !== null ? resolve(undefined) : served.child.once("exit", resolve)))
    rmSync(dir, { recursive: true, force: true })
  }
}

const main = async () => {
  console.log(
    `Sign-in flood: ${FLOOD} requests, ${CONCURRENCY} at a time; node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}`
  )
  console.log("")
  console.log("| checkout | flood from | /health p50 / p99 / max ms | evaluation p50 / p99 / max ms | real sign-in ms (tries) | flood answers | flood s | server event loop µs / flood request |")
  console.log("|---|---|---:|---:|---:|---|---:|---:|")
  for (const shape of SHAPES) {
    for (const [label, root] of ROOTS) {
      const run = await runOnce(root, shape)
      const stats = (values: ReadonlyArray<number>) => `${quantile(values, 0.5).toFixed(1)} / ${quantile(values, 0.99).toFixed(1)} / ${Math.max(...values).toFixed(1)}`
      const answers = Object.entries(run.floodStatuses).map(([status, count]) => `${count}×${status}`).join(", ")
      console.log(
        `| ${label} | ${shape} | ${stats(run.health)} | ${stats(run.evaluation)} | ${run.signInMs.toFixed(0)} (${run.signInTries}) | ${answers} | ${run.floodSeconds.toFixed(1)} | ${run.loopUsPerRequest === undefined ? "" : run.loopUsPerRequest.toFixed(0)} |`
      )
    }
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
