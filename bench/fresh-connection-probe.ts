/**
 * The fresh-connection probe of bench/mixed-load.bench.ts: GET /health on a new TCP connection
 * every so often, from a process of its own (run as `tsx bench/fresh-connection-probe.ts PORT
 * DURATION_MS SPAWNED_AT warm|cold`, which `startProbe` does), so neither the server's nor the
 * load's event loop delays its clock.
 */
import { spawn } from "node:child_process"
import { request } from "node:http"
import { fileURLToPath } from "node:url"

const SELF = fileURLToPath(import.meta.url)
export const PROBE_INTERVAL_MS = Number(process.env["BENCH_PROBE_INTERVAL_MS"] ?? 5000)
/** When the first probe goes, after the mix starts: inside the first second's burst of new connections. */
export const PROBE_FIRST_MS = Number(process.env["BENCH_PROBE_FIRST_MS"] ?? 1000)
const PROBE_TIMEOUT_MS = 15_000

export interface ProbeReport {
  readonly latenciesMs: ReadonlyArray<number>
  /** Of each answered probe, how long the TCP connection took to be established (the kernel's part). */
  readonly connectMs: ReadonlyArray<number>
  /** From the parent's spawn of the probe process to its first measured probe (not part of any latency). */
  readonly startupMs: number
  /** Whether the probe process was started (and its first request made) before the mix: see `startProbe`. */
  readonly warm: boolean
  readonly timeouts: number
  readonly errors: number
}

interface Probed {
  readonly ms: number
  readonly connectMs: number
}

export const probeOnce = (port: number): Promise<Probed | "timeout" | "error"> =>
  new Promise((done) => {
    const started = performance.now()
    let connectMs = Number.NaN
    // agent: false: a new TCP connection each time, which must get through the listen queue.
    // The id carries the time it was sent, for the server's side of it (BENCH_REQUEST_LOG).
    const headers = { "x-request-id": `probe-${Date.now()}` }
    const req = request({ host: "127.0.0.1", port, path: "/health", agent: false, timeout: PROBE_TIMEOUT_MS, headers }, (res) => {
      res.resume()
      res.on("end", () => done(res.statusCode === 200 ? { ms: performance.now() - started, connectMs } : "error"))
    })
    req.on("socket", (socket) => socket.once("connect", () => (connectMs = performance.now() - started)))
    req.on("timeout", () => {
      req.destroy()
      done("timeout")
    })
    req.on("error", () => done("error"))
    req.end()
  })

const probe = async (port: number, durationMs: number, spawnedAt: number, warm: boolean) => {
  if (warm) {
    // One request before the mix (not counted), so the measured ones run warm code; then wait for "go".
    await probeOnce(port)
    process.stdout.write("ready\n")
    await new Promise((go) => process.stdin.once("data", go))
    await new Promise((r) => setTimeout(r, PROBE_FIRST_MS))
  }
  const results: Array<Promise<Probed | "timeout" | "error">> = []
  const startupMs = Date.now() - spawnedAt
  const end = Date.now() + durationMs
  while (Date.now() < end) {
    results.push(probeOnce(port))
    await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS))
  }
  const settled = await Promise.all(results)
  const answered = settled.filter((r): r is Probed => typeof r === "object")
  const report: ProbeReport = {
    latenciesMs: answered.map((r) => r.ms),
    connectMs: answered.map((r) => r.connectMs),
    startupMs,
    warm,
    timeouts: settled.filter((r) => r === "timeout").length,
    errors: settled.filter((r) => r === "error").length
  }
  process.stdout.write(`${JSON.stringify(report)}\n`)
  process.stdin.destroy()
}

/**
 * The fresh-connection probe, a process of its own (so the server's and the load's event loops
 * never delay its clock). Started before the warm-up by default, it has loaded and made one request
 * before the mix; `go` starts its probes with the mix. BENCH_PROBE_COLD=1 spawns it at the mix's
 * start instead, as this bench did until 2026-11-27: its first probe then ran through code never run
 * before, in a process starting up on a machine the mix had just saturated (bench/LOG.md, "The first fresh probe").
 */
export const startProbe = (port: number, durationMs: number, warm: boolean) => {
  const child = spawn(process.execPath, ["--import", "tsx", SELF, String(port), String(durationMs), String(Date.now()), warm ? "warm" : "cold"], {
    stdio: ["pipe", "pipe", "inherit"]
  })
  let output = ""
  let markReady: () => void = () => {}
  const ready = warm ? new Promise<void>((resolve) => (markReady = resolve)) : Promise.resolve()
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString()
    if (output.startsWith("ready\n")) {
      output = output.slice("ready\n".length)
      markReady()
    }
  })
  const report = new Promise<ProbeReport>((done, fail) =>
    child.on("exit", (code) => (code === 0 ? done(JSON.parse(output) as ProbeReport) : fail(new Error(`probe exited with ${code}`))))
  )
  return {
    ready,
    /** Starts the probes (at once for a cold probe) and resolves with its report. */
    run: () => {
      if (warm) child.stdin.write("go\n")
      return report
    }
  }
}

/** Per probe: when the server read its request and how long it took to answer (its request log). */
export const serverSideOfProbes = (serverStdout: string): ReadonlyArray<string> =>
  serverStdout
    .split("\n")
    .filter((line) => line.includes('"requestId":"probe-'))
    .map((line) => {
      const entry = JSON.parse(line) as { readonly timestamp: string; readonly durationMs: number; readonly requestId: string }
      const sent = Number(entry.requestId.slice("probe-".length))
      const answered = Date.parse(entry.timestamp) - sent
      return `probe sent at ${new Date(sent).toISOString()}: read by the server after ${Math.round(answered - entry.durationMs)} ms, answered in ${Math.round(entry.durationMs)} ms`
    })

if (process.argv[1] === SELF) {
  const [port, duration, spawnedAt, mode] = process.argv.slice(2)
  await probe(Number(port), Number(duration), Number(spawnedAt), mode === "warm")
}
