/**
 * Start-up benchmark (run by hand): `npx tsx bench/startup.bench.ts [FLAGS] [RUNS] [BEFORE]` (defaults 1000, 5).
 * BEFORE: another checkout (e.g. a `git archive` of an older revision with `node_modules` linked),
 * started the same ways in the same rounds, for a side-by-side comparison. Each checkout keeps its CLI
 * bundle in its own `.tmp/bench-cli-cache/` (FLAGPORT_CLI_CACHE), so neither rebuilds it for the other.
 *
 * Seeds one SQLite file (project `bench`, environment `production`, FLAGS flags shaped like W2 of
 * the evaluator benchmark, a client key), then starts the server on it RUNS times in each of two
 * ways, alternating: `npm start` (what the README says to run: npm, then `node bin/flagport.mjs
 * serve --init`) and `node bin/flagport.mjs serve --init` alone (the same without npm's own
 * start-up). Each start is timed from the spawn to the first answered `/health` and to the first
 * answered evaluation (`GET /v1/flags/w2-flag-7/eval`, 200 with the served value), both polled
 * together every 5 ms; then the server is stopped with SIGTERM. The database exists and is migrated before every
 * timed start (a warm-up start, not timed, also builds the CLI bundle: `bin/flagport.mjs` keeps it
 * in `node_modules/.cache/` keyed by the sources, as a second `npm start` finds it).
 *
 * Prints each start and the median and range per way, with the load average.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { loadavg, tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import * as StorageLayer from "../adapters/app/Composition.js"
import { freePort } from "./free-port.js"
import { CONTEXT, seedW2Flags } from "./http-fixture.js"
import { machineLine } from "./rotating-rounds.js"

const FLAGS = Number(process.argv[2] ?? 1000)
const RUNS = Number(process.argv[3] ?? 5)
const CHECKOUT = fileURLToPath(new URL("..", import.meta.url))
const BEFORE = process.argv[4] === undefined ? undefined : resolve(process.argv[4])
/** The checkouts started, by label. */
const CHECKOUTS: ReadonlyArray<readonly [string, string]> = BEFORE === undefined ? [["", CHECKOUT]] : [["before ", BEFORE], ["after ", CHECKOUT]]

/** One GET on 127.0.0.1: its status and body, or null when nothing answers yet. */
const get = (port: number, path: string, headers: Record<string, string>): Promise<{ status: number; body: string } | null> =>
  new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (body += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
      res.on("error", () => resolve(null))
    })
    req.on("error", () => resolve(null))
    req.end()
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Start {
  readonly health: number
  readonly evaluation: number
}

const startOnce = async (way: "npm" | "node", checkout: string, databaseUrl: string, clientKey: string): Promise<Start> => {
  const port = await freePort()
  const command = way === "npm" ? ["npm", ["start", "--silent"]] as const : [process.execPath, [join(checkout, "bin/flagport.mjs"), "serve", "--init"]] as const
  const cache = join(checkout, ".tmp", "bench-cli-cache")
  mkdirSync(cache, { recursive: true })
  const t0 = performance.now()
  const child: ChildProcess = spawn(command[0], [...command[1]], {
    cwd: checkout,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", FLAGPORT_LOG_LEVEL: "warn", FLAGPORT_CLI_CACHE: cache },
    stdio: ["ignore", "ignore", "pipe"]
  })
  let errors = ""
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()))
  const path = `/v1/flags/w2-flag-7/eval?environment=production&key=${CONTEXT.key}&attributes=${encodeURIComponent(JSON.stringify(CONTEXT.attributes))}`
  let health: number | undefined
  let evaluation: number | undefined
  try {
    // Both polled in each round, side by side: a server may answer evaluations before /health
    // (the HttpApi app, which serves /health, is built behind the evaluation lane).
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${errors}`)
      if (performance.now() - t0 > 60_000) throw new Error("no evaluation answered within 60 s")
      const [h, r] = await Promise.all([
        health === undefined ? get(port, "/health", {}) : Promise.resolve(null),
        evaluation === undefined ? get(port, path, { authorization: `Bearer ${clientKey}` }) : Promise.resolve(null)
      ])
      const now = performance.now() - t0
      if (h !== null && h.status === 200) health ??= now
      if (r !== null && r.status === 200 && JSON.parse(r.body).value !== undefined) evaluation ??= now
      else if (r !== null && r.status !== 200) throw new Error(`evaluation answered ${r.status}: ${r.body}\n${errors}`)
      if (health !== undefined && evaluation !== undefined) return { health, evaluation }
      await sleep(5)
    }
  } finally {
    const exited = new Promise((r) => child.once("exit", r))
    if (child.exitCode === null) child.kill("SIGTERM")
    await exited
  }
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
const ms = (x: number) => `${x.toFixed(0)} ms`

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-startup-"))
  try {
    const databaseUrl = `sqlite:${join(dir, "bench.db")}`
    const seeded = performance.now()
    const clientKey = await Effect.runPromise(seedW2Flags(FLAGS).pipe(Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl))))
    console.log(`seeded ${FLAGS} flags in ${ms(performance.now() - seeded)}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`)
    // Warm-up: builds each checkout's CLI bundle if its sources changed.
    for (const [, checkout] of CHECKOUTS) await startOnce("node", checkout, databaseUrl, clientKey)
    const results = new Map<string, Array<Start>>()
    for (let r = 0; r < RUNS; r++) {
      const ways: Array<readonly [string, string, "npm" | "node"]> = []
      for (const [label, checkout] of CHECKOUTS) for (const way of ["npm", "node"] as const) ways.push([label, checkout, way])
      // Alternating order, so neither side always starts first in a round.
      if (r % 2 === 1) ways.reverse()
      for (const [label, checkout, way] of ways) {
        const s = await startOnce(way, checkout, databaseUrl, clientKey)
        const name = `${label}${way}`
        results.set(name, [...(results.get(name) ?? []), s])
        console.log(`run ${r + 1} ${name.padEnd(12)}: /health ${ms(s.health).padStart(8)}, first evaluation ${ms(s.evaluation).padStart(8)}`)
      }
    }
    for (const [label] of CHECKOUTS) {
      for (const way of ["npm", "node"] as const) {
        const starts = results.get(`${label}${way}`)!
        const h = starts.map((s) => s.health)
        const e = starts.map((s) => s.evaluation)
        console.log(
          `${label}${way === "npm" ? "npm start" : "node bin/flagport.mjs serve --init"}: /health median ${ms(median(h))} (${ms(Math.min(...h))} to ${ms(Math.max(...h))}), ` +
            `first evaluation median ${ms(median(e))} (${ms(Math.min(...e))} to ${ms(Math.max(...e))}), ${RUNS} starts`
        )
      }
    }
    console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}${machineLine()}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
