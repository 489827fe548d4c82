/**
 * What a running experiment costs the evaluation routes (run by hand):
 * `flock /tmp/flagport-bench.lock nice -n -10 npx tsx bench/experiment-cost.bench.ts`
 * (BENCH_DURATION=seconds per run, default 10; BENCH_ROUNDS, default 2; BENCH_CONNECTIONS, default 50;
 * BENCH_UNITS, default 10000: the units requests cycle through, returning users; 0: a new unit per
 * request, the worst case, where every evaluation is an exposure to write; BENCH_INGEST=items/s:
 * the ingestion mode below).
 *
 * Two Flagport servers side by side, each in its own child process on its own SQLite file with the
 * same 50 flags (W2 of http-fixture.ts): on one, an experiment runs on flag w2-flag-7's rollout
 * rule; on the other, none. Every request sends the next context key (the unit) of BENCH_UNITS,
 * with attributes that pass the rules before the rollout, so on the first server every request is
 * an exposure of the experiment (written once per unit and variation; with BENCH_UNITS=0 every
 * request is a new unit to write) and its ingestion writes them while it is measured.
 * Routes: POST /v1/evaluate (50 flags), GET /v1/flags/w2-flag-7/eval, OFREP single and bulk.
 * Rounds rotate who goes first. Prints req/s of both, the ratio, and p99s; then how many units the
 * experiment stored.
 *
 * Ingestion mode (BENCH_INGEST=20000): both servers run the experiment; while each route is
 * measured on the first, `POST /v1/exposures` batches of 500 new units are posted to it beside the
 * evaluations at BENCH_INGEST items per second (autocannon's overall rate, 4 connections), none to
 * the second. The ratio is then what that ingestion costs the evaluation routes; the items/s it
 * achieved are printed with it.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { Effect } from "effect"
import * as StorageLayer from "../adapters/app/Composition.js"
import { startServer } from "../adapters/http/serving/Server.js"
import { ExperimentUnitRepository } from "../src/ports/ExperimentUnitRepository.js"
import { Experiments } from "../src/services/experiments/Experiments.js"
import { bundledChildren, type Scenario } from "./bundled-children.js"
import { seedW2Project } from "./http-fixture.js"
import { machineLine, rotatingRounds } from "./rotating-rounds.js"

const SELF = fileURLToPath(import.meta.url)
const DURATION = Number(process.env["BENCH_DURATION"] ?? 10)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 2)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 50)
const INGEST = Number(process.env["BENCH_INGEST"] ?? 0)
const INGEST_BATCH = 500

/** Attributes that pass the W2 rules before the rollout (not US, not @example.com). */
const ATTRIBUTES = { email: "ada@example.org", country: "FR", plan: "free", seats: 3 }

const experimentInput = {
  key: "bench-exp",
  flagKey: "w2-flag-7",
  environment: "production",
  ruleId: "rollout-7",
  controlVariationKey: "C",
  metrics: [{ key: "buys", event: "purchase", kind: "conversion" as const, goal: "increase" as const, role: "primary" as const }]
}

// Child: a Flagport server, with the experiment running or not.
const serveFlagport = async (dir: string, measured: boolean) => {
  const databaseUrl = `sqlite:${join(dir, "bench.db")}`
  const clientKey = await Effect.runPromise(
    Effect.gen(function* () {
      const key = yield* seedW2Project
      if (measured) {
        const experiments = yield* Experiments
        yield* experiments.create("bench", experimentInput)
        yield* experiments.start("bench", "bench-exp")
      }
      return key
    }).pipe(Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl)))
  )
  const server = await startServer({ port: 0, host: "127.0.0.1", databaseUrl, webhooks: false })
  process.stdout.write(`${JSON.stringify({ port: server.port, clientKey })}\n`)
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)))
}

/** Units stored by the experiment of a server's database (read after its server stopped). */
const storedUnits = (dir: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const experiment = yield* (yield* Experiments).get("bench", "bench-exp")
      return (yield* (yield* ExperimentUnitRepository).units(experiment.id)).length
    }).pipe(Effect.provide(StorageLayer.fromDatabaseUrl(`sqlite:${join(dir, "bench.db")}`)))
  )

const { startChild } = bundledChildren(SELF)

const UNITS = Number(process.env["BENCH_UNITS"] ?? 10_000)

/** The next unit: of a population of UNITS, or a new one each time (UNITS = 0). */
let counter = 0
const nextKey = () => `u-${UNITS > 0 ? counter++ % UNITS : counter++}`

const scenarios = (clientKey: string): Array<Scenario & { readonly vary: (path: string, body: string | undefined) => { path: string; body?: string } }> => {
  const auth = { authorization: `Bearer ${clientKey}` }
  const ofrepHeaders = { ...auth, "content-type": "application/json", "flagport-environment": "production" }
  const attributes = encodeURIComponent(JSON.stringify(ATTRIBUTES))
  return [
    {
      name: "POST /v1/evaluate (50 flags)",
      method: "POST",
      path: "/v1/evaluate",
      headers: { ...auth, "content-type": "application/json" },
      vary: (path) => ({ path, body: JSON.stringify({ environment: "production", context: { key: nextKey(), attributes: ATTRIBUTES } }) })
    },
    {
      name: "GET /v1/flags/{flagKey}/eval",
      method: "GET",
      path: "/v1/flags/w2-flag-7/eval",
      headers: auth,
      vary: (path) => ({ path: `${path}?environment=production&key=${nextKey()}&attributes=${attributes}` })
    },
    {
      name: "POST /ofrep/v1/evaluate/flags/{key}",
      method: "POST",
      path: "/ofrep/v1/evaluate/flags/w2-flag-7",
      headers: ofrepHeaders,
      vary: (path) => ({ path, body: JSON.stringify({ context: { targetingKey: nextKey(), ...ATTRIBUTES } }) })
    },
    {
      name: "POST /ofrep/v1/evaluate/flags (50 flags)",
      method: "POST",
      path: "/ofrep/v1/evaluate/flags",
      headers: ofrepHeaders,
      vary: (path) => ({ path, body: JSON.stringify({ context: { targetingKey: nextKey(), ...ATTRIBUTES } }) })
    }
  ]
}

/** Exposures of new units posted at INGEST items/s for `duration` seconds; resolves with the items accepted. */
let ingestBatches = 0
const ingest = async (port: number, clientKey: string, duration: number): Promise<number> => {
  let accepted = 0
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 4,
    overallRate: INGEST / INGEST_BATCH,
    duration,
    requests: [{
      method: "POST",
      path: "/v1/exposures",
      headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
      setupRequest: (request) => {
        const n = ingestBatches++
        const timestamp = new Date().toISOString()
        const exposures = Array.from({ length: INGEST_BATCH }, (_, i) => ({ flagKey: "w2-flag-7", variationKey: "C", ruleId: "rollout-7", unit: `i${n}-${i}`, timestamp }))
        return { ...request, body: JSON.stringify({ environment: "production", batchId: `ingest-${n}`, exposures }) }
      },
      onResponse: (status, body) => {
        if (status === 202) accepted += (JSON.parse(body) as { accepted: number }).accepted
      }
    }]
  })
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`ingestion: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return accepted / duration
}

const load = (port: number, scenario: ReturnType<typeof scenarios>[number], duration: number) =>
  autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: [{
      method: scenario.method,
      headers: scenario.headers,
      setupRequest: (request) => ({ ...request, ...scenario.vary(scenario.path, undefined) })
    }]
  })

const main = async () => {
  const dirs = [mkdtempSync(join(tmpdir(), "flagport-bench-exp-")), mkdtempSync(join(tmpdir(), "flagport-bench-none-"))]
  const children: Array<ChildProcess> = []
  try {
    const measured = await startChild(["serve-flagport", dirs[0]!, "measured"])
    children.push(measured.child)
    const plain = await startChild(["serve-flagport", dirs[1]!, INGEST > 0 ? "measured" : "plain"])
    children.push(plain.child)
    const names = INGEST > 0 ? [`ingesting ${INGEST} items/s`, "not ingesting"] : ["experiment running", "no experiment"]
    const servers = [
      { name: names[0]!, port: measured.info.port as number, clientKey: measured.info.clientKey as string, scenarios: scenarios(measured.info.clientKey as string), ingesting: INGEST > 0 },
      { name: names[1]!, port: plain.info.port as number, clientKey: plain.info.clientKey as string, scenarios: scenarios(plain.info.clientKey as string), ingesting: false }
    ]
    const ingested: Array<number> = []
    const rounds = await rotatingRounds(servers, ROUNDS, async (server, scenario) => {
      const full = server.scenarios.find((s) => s.name === scenario.name)!
      await load(server.port, full, 2)
      if (!server.ingesting) return load(server.port, full, DURATION)
      const [result, itemsPerSecond] = await Promise.all([load(server.port, full, DURATION), ingest(server.port, server.clientKey, DURATION)])
      ingested.push(itemsPerSecond)
      console.error(`  beside it: ${Math.round(itemsPerSecond)} items/s ingested`)
      return result
    })
    for (const child of children.splice(0)) {
      child.kill("SIGTERM")
      await new Promise((resolve) => child.once("exit", resolve))
    }
    const units = await storedUnits(dirs[0]!)
    console.log(machineLine())
    const population = UNITS > 0 ? `units cycling through ${UNITS}` : "a new unit per request"
    console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} per run, after a 2 s warm-up, ${ROUNDS} rounds (mean req/s, worst p99); ${population}`)
    if (INGEST > 0) console.log(`beside the first: POST /v1/exposures at ${INGEST} items/s asked, ${Math.round(Math.min(...ingested))} to ${Math.round(Math.max(...ingested))} items/s achieved per run`)
    console.log(`\n| route | ${names[0]} req/s | ${names[1]} req/s | ratio | p99 (ms) |`)
    console.log("|---|---|---|---|---|")
    for (const scenario of servers[0]!.scenarios) {
      const [on, off] = servers.map((server) => rounds.meanRps(scenario, server))
      const [onP, offP] = servers.map((server) => rounds.worstP99(scenario, server))
      console.log(`| ${scenario.name} | ${Math.round(on!)} | ${Math.round(off!)} | ${(on! / off!).toFixed(3)} | ${onP} / ${offP} ms |`)
    }
    console.log(`\nUnits the running experiment stored: ${units}`)
  } finally {
    for (const child of children) child.kill("SIGTERM")
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

const [mode, arg, option] = process.argv.slice(2)
if (mode === "serve-flagport") await serveFlagport(arg!, option === "measured")
else await main()
