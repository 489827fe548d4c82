/**
 * What a running experiment costs the evaluation routes (run by hand):
 * `flock /tmp/flagport-bench.lock nice -n -10 npx tsx bench/experiment-cost.bench.ts`
 * (BENCH_DURATION=seconds per run, default 10; BENCH_ROUNDS, default 2; BENCH_CONNECTIONS, default 50;
 * BENCH_UNITS, default 10000: the units requests cycle through, returning users; 0: a new unit per
 * request, the worst case, where every evaluation is an exposure to write).
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
    const plain = await startChild(["serve-flagport", dirs[1]!, "plain"])
    children.push(plain.child)
    const servers = [
      { name: "experiment running", port: measured.info.port as number, scenarios: scenarios(measured.info.clientKey as string) },
      { name: "no experiment", port: plain.info.port as number, scenarios: scenarios(plain.info.clientKey as string) }
    ]
    const rounds = await rotatingRounds(servers, ROUNDS, async (server, scenario) => {
      const full = server.scenarios.find((s) => s.name === scenario.name)!
      await load(server.port, full, 2)
      return load(server.port, full, DURATION)
    })
    for (const child of children.splice(0)) {
      child.kill("SIGTERM")
      await new Promise((resolve) => child.once("exit", resolve))
    }
    const units = await storedUnits(dirs[0]!)
    console.log(machineLine())
    const population = UNITS > 0 ? `units cycling through ${UNITS}` : "a new unit per request"
    console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} per run, after a 2 s warm-up, ${ROUNDS} rounds (mean req/s, worst p99); ${population}\n`)
    console.log("| route | experiment running req/s | no experiment req/s | running / none | p99 running / none |")
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
