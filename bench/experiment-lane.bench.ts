/**
 * What a running experiment costs an evaluation, in process and in CPU time (run by hand):
 * `flock /tmp/flagport-bench.lock nice -n -10 npx tsx bench/experiment-lane.bench.ts`
 * (BENCH_UNITS, default 10000: the units answers cycle through; 0: a new unit per answer, every
 * evaluation an exposure to write; BENCH_ROUNDS, default 6; BENCH_ANSWERS per round, default 20000).
 *
 * Two evaluation lanes (EvaluationLane.answer, no sockets), each over its own SQLite file with the
 * 50 W2 flags of http-fixture.ts: on one an experiment runs on flag w2-flag-7's rollout rule, on the
 * other none. The contexts pass the rules before the rollout, so on the first every answer of that
 * flag is an exposure. A round answers BENCH_ANSWERS requests, then waits for the ingestion queue
 * to be written: its process CPU time (main thread and SQLite's writer thread together) divided by
 * the answers is the cost per answer, writes included. Rounds alternate which lane goes first.
 * CPU time rather than requests per second over sockets: on a shared 2-core machine other
 * processes move throughput by tens of percent between runs, CPU time per answer much less.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as StorageLayer from "../adapters/app/Composition.js"
import * as EvaluationLaneLayer from "../adapters/http/lane/EvaluationLaneLayer.js"
import { routeOf } from "../adapters/http/lane/Routes.js"
import * as Authentication from "../adapters/http/shared/Authentication.js"
import { EvaluationLaneService, type LaneRequest } from "../adapters/http/shared/EvaluationLaneService.js"
import { ExperimentUnitRepository } from "../src/ports/ExperimentUnitRepository.js"
import { Experiments } from "../src/services/experiments/Experiments.js"
import { Ingestion } from "../src/services/experiments/Ingestion.js"
import { seedW2Project } from "./http-fixture.js"
import { machineLine } from "./rotating-rounds.js"

const UNITS = Number(process.env["BENCH_UNITS"] ?? 10_000)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 6)
const ANSWERS = Number(process.env["BENCH_ANSWERS"] ?? 20_000)
const ATTRIBUTES = { email: "ada@example.org", country: "FR", plan: "free", seats: 3 }

const lane = async (file: string, measured: boolean) => {
  const services = StorageLayer.servicesFrom(StorageLayer.fromDatabaseUrl(`sqlite:${file}`))
  const runtime = ManagedRuntime.make(EvaluationLaneLayer.layer().pipe(Layer.provideMerge(Authentication.layer()), Layer.provideMerge(services)))
  // Seeded before the lane reads the running experiments: the lane is built by the first run.
  const clientKey = await Effect.runPromise(
    Effect.gen(function* () {
      const key = yield* seedW2Project
      if (measured) {
        const experiments = yield* Experiments
        yield* experiments.create("bench", {
          key: "bench-exp",
          flagKey: "w2-flag-7",
          environment: "production",
          ruleId: "rollout-7",
          controlVariationKey: "C",
          metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
        })
        yield* experiments.start("bench", "bench-exp")
      }
      return key
    }).pipe(Effect.provide(StorageLayer.fromDatabaseUrl(`sqlite:${file}`)))
  )
  const { service, ingestion } = await runtime.runPromise(Effect.all({ service: EvaluationLaneService, ingestion: Ingestion }))
  return { name: measured ? "experiment running" : "no experiment", runtime, service, ingestion, clientKey }
}

type Lane = Awaited<ReturnType<typeof lane>>

let counter = 0
const nextUnit = () => `u-${UNITS > 0 ? counter++ % UNITS : counter++}`

const routes = [
  { name: "POST /v1/evaluate (50 flags)", method: "POST", path: "/v1/evaluate", body: (unit: string) => ({ environment: "production", context: { key: unit, attributes: ATTRIBUTES } }) },
  { name: "GET /v1/flags/{flagKey}/eval", method: "GET", path: "/v1/flags/w2-flag-7/eval", body: undefined },
  { name: "POST /ofrep/v1/evaluate/flags/{key}", method: "POST", path: "/ofrep/v1/evaluate/flags/w2-flag-7", body: (unit: string) => ({ context: { targetingKey: unit, ...ATTRIBUTES } }) },
  { name: "POST /ofrep/v1/evaluate/flags (50 flags)", method: "POST", path: "/ofrep/v1/evaluate/flags", body: (unit: string) => ({ context: { targetingKey: unit, ...ATTRIBUTES } }) }
] as const

const attributesQuery = encodeURIComponent(JSON.stringify(ATTRIBUTES))

/** CPU µs per answer of one round on `target`, its ingestion queue written. */
const round = async (target: Lane, route: (typeof routes)[number]) => {
  const laneRoute = routeOf(route.method, route.path)!
  const cpu = process.cpuUsage()
  for (let i = 0; i < ANSWERS; i++) {
    const unit = nextUnit()
    const body = route.body === undefined ? new Uint8Array(0) : Buffer.from(JSON.stringify(route.body(unit)))
    const headers: Record<string, string> = {
      authorization: `Bearer ${target.clientKey}`,
      "content-type": "application/json",
      "content-length": String(body.length),
      "flagport-environment": "production"
    }
    const request: LaneRequest = {
      query: route.body === undefined ? `environment=production&key=${unit}&attributes=${attributesQuery}` : "",
      header: (name) => headers[name],
      body: () => Promise.resolve(body)
    }
    const response = await target.service.answer(laneRoute, request)
    if (response.status !== 200) throw new Error(`${route.name}: ${response.status} ${String(response.body)}`)
  }
  await target.runtime.runPromise(target.ingestion.flush)
  const used = process.cpuUsage(cpu)
  return (used.user + used.system) / ANSWERS
}

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-bench-explane-"))
  try {
    const lanes = [await lane(join(dir, "measured.db"), true), await lane(join(dir, "plain.db"), false)]
    const rows: Array<string> = []
    for (const route of routes) {
      const costs = new Map<string, Array<number>>(lanes.map((l) => [l.name, []]))
      await round(lanes[0]!, route) // warm-up of both (JIT, caches)
      await round(lanes[1]!, route)
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? lanes : [...lanes].reverse()
        for (const target of order) costs.get(target.name)!.push(await round(target, route))
      }
      const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
      const [on, off] = lanes.map((l) => median(costs.get(l.name)!))
      rows.push(`| ${route.name} | ${on!.toFixed(1)} | ${off!.toFixed(1)} | ${(on! / off!).toFixed(3)} | ${(off! / on!).toFixed(3)} |`)
      console.error(rows[rows.length - 1])
    }
    const stored = await lanes[0]!.runtime.runPromise(
      Effect.gen(function* () {
        const experiment = yield* (yield* Experiments).get("bench", "bench-exp")
        return (yield* (yield* ExperimentUnitRepository).units(experiment.id)).length
      })
    )
    console.log(machineLine())
    const population = UNITS > 0 ? `units cycling through ${UNITS}` : "a new unit per answer"
    console.log(`${ANSWERS} answers per round, ${ROUNDS} rounds alternating, medians; ${population}; the experiment stored ${stored} units\n`)
    console.log("| route | experiment running µs CPU/answer | no experiment µs CPU/answer | running / none | throughput running / none |")
    console.log("|---|---|---|---|---|")
    for (const row of rows) console.log(row)
    for (const l of lanes) await l.runtime.dispose()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
process.exit(0)
