/**
 * Storage benchmark (run by hand, not a test):
 *
 *   node --expose-gc --import tsx bench/storage.bench.ts [flags=10000]
 *
 * For SQLite (a temp file, synchronous=FULL) and PostgreSQL (an embedded PostgreSQL 15 started
 * here, or FLAGPORT_BENCH_DATABASE_URL when set: a database that may be wiped):
 * 1. seeds one project with 3 environments, FLAGS flags (string flags with 3 variations and, per
 *    environment, 2 targeting rules: an `in` rule and a 3-way rollout) and 5 segments;
 * 2. snapshot load: Snapshots.snapshot(project, "production") end to end (queries + JSON
 *    parsing), median of 5, and Evaluate.compile on the result, median of 5;
 * 3. memory: heap retained by the loaded snapshot and by the compiled snapshot (gc forced);
 * 4. targeting-replace writes/s: PUT-targeting use cases (validation, transaction, outbox event)
 *    on random flags, sequential and with 8 concurrent fibers.
 * Wall-clock and process CPU time are both reported (CPU is the one to read on a busy machine).
 */
import { mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import * as StorageLayer from "../adapters/app/Composition.js"
import type { Flag } from "../src/domain/definitions/Flag.js"
import type { Rule, TargetingInput } from "../src/domain/definitions/Targeting.js"
import * as Evaluate from "../src/domain/evaluation/Evaluate.js"
import { FlagRepository } from "../src/ports/FlagRepository.js"
import { StorageHealth } from "../src/ports/StorageHealth.js"
import { Transactor } from "../src/ports/Transactor.js"
import { Environments } from "../src/services/projects/Environments.js"
import { Flags } from "../src/services/flags/Flags.js"
import { Projects } from "../src/services/projects/Projects.js"
import { Segments } from "../src/services/segments/Segments.js"
import { Snapshots } from "../src/services/evaluation/Snapshots.js"
import { startEmbeddedPostgres } from "../test/setup/EmbeddedPostgres.js"

const FLAGS = Number(process.argv[2] ?? 10_000)
const ENVIRONMENTS = ["development", "staging", "production"]
const PROJECT = "bench"
const gc = (globalThis as { gc?: () => void }).gc

const rulesFor = (i: number, env: string): Array<Rule> => [
  {
    id: `r-${env}-in`,
    name: "paying customers in North America",
    conditions: [
      { attribute: "country", operator: "in", values: ["US", "CA", "MX"] },
      { attribute: "plan", operator: "in", values: ["pro", "enterprise"] }
    ],
    variationKey: "a"
  },
  {
    id: `r-${env}-rollout`,
    conditions: [{ attribute: "version", operator: "semverGt", values: ["2.0.0"] }],
    rollout: {
      bucketBy: "key",
      seed: `seed-${i}`,
      variations: [
        { variationKey: "a", weight: 33_334 },
        { variationKey: "b", weight: 33_333 },
        { variationKey: "c", weight: 33_333 }
      ]
    }
  }
]

const flagFor = (i: number, now: string): Flag => ({
  id: `flag-${i}`,
  key: `flag-${String(i).padStart(5, "0")}`,
  name: `Flag number ${i}`,
  description: i % 3 === 0 ? null : `Benchmark flag ${i}, with a description of moderate length.`,
  type: "string",
  variations: [
    { key: "a", value: `value-a-${i}`, name: "A" },
    { key: "b", value: `value-b-${i}` },
    { key: "c", value: `value-c-${i}` }
  ],
  configs: ENVIRONMENTS.map((environmentKey) => ({
    environmentKey,
    enabled: i % 2 === 0,
    defaultVariationKey: "b",
    offVariationKey: "c",
    rules: rulesFor(i, environmentKey)
  })),
  createdAt: now,
  updatedAt: now,
  version: 1
})

const seed = Effect.gen(function* () {
  yield* (yield* Projects).create({ id: PROJECT, name: "Benchmark" })
  for (const key of ENVIRONMENTS) yield* (yield* Environments).create(PROJECT, { key, name: key })
  for (let s = 0; s < 5; s++) {
    yield* (yield* Segments).create(PROJECT, {
      key: `segment-${s}`,
      name: `Segment ${s}`,
      conditions: [{ attribute: "email", operator: "endsWith", values: [`@tenant${s}.example`] }]
    })
  }
  // Flags are written straight through the repository, in batches of 1,000 per transaction:
  // seeding is not what is measured.
  const repo = yield* FlagRepository
  const tx = yield* Transactor
  const now = new Date().toISOString()
  for (let start = 0; start < FLAGS; start += 1000) {
    yield* tx.withTransaction(
      Effect.forEach(
        Array.from({ length: Math.min(1000, FLAGS - start) }, (_, j) => start + j),
        (i) => repo.insert(PROJECT, flagFor(i, now)),
        { discard: true }
      )
    )
  }
})

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** Wall-clock and CPU milliseconds of one run of `effect`. */
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const cpu = process.cpuUsage()
    const start = performance.now()
    const value = yield* effect
    const wall = performance.now() - start
    const used = process.cpuUsage(cpu)
    return { value, wall, cpu: (used.user + used.system) / 1000 }
  })

const heapUsed = () => {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed
}

const targetingInput = (i: number, n: number): TargetingInput => ({
  environment: ENVIRONMENTS[n % 3]!,
  enabled: n % 2 === 0,
  defaultVariationKey: "a",
  offVariationKey: "c",
  rules: rulesFor(i, `w${n}`)
})

const measure = (backend: string) =>
  Effect.gen(function* () {
    const seeded = yield* timed(seed)
    const snapshots = yield* Snapshots
    const loads: Array<{ wall: number; cpu: number }> = []
    const compiles: Array<{ wall: number; cpu: number }> = []
    for (let r = 0; r < 5; r++) {
      const loaded = yield* timed(snapshots.snapshot(PROJECT, "production"))
      loads.push(loaded)
      compiles.push(yield* timed(Effect.sync(() => Evaluate.compile(loaded.value.snapshot))))
    }
    // Memory: what one loaded snapshot and its compiled form keep alive.
    const base = heapUsed()
    const { snapshot } = yield* snapshots.snapshot(PROJECT, "production")
    const withSnapshot = heapUsed()
    const compiled = Evaluate.compile(snapshot)
    const withCompiled = heapUsed()
    if (snapshot.flags.length !== FLAGS || !Evaluate.hasFlag(compiled, "flag-00000")) throw new Error("bad snapshot")

    // The database round trip (SELECT 1) puts the write rates in context on a busy machine.
    const health = yield* StorageHealth
    const ping = yield* timed(Effect.repeatN(health.check, 199))

    const flags = yield* Flags
    const sequential = 300
    const seq = yield* timed(
      Effect.forEach(Array.from({ length: sequential }, (_, n) => n), (n) => {
        const i = Math.floor(Math.random() * FLAGS)
        return flags.replaceTargeting(PROJECT, `flag-${String(i).padStart(5, "0")}`, targetingInput(i, n))
      }, { discard: true })
    )
    const parallel = 400
    const par = yield* timed(
      Effect.forEach(Array.from({ length: parallel }, (_, n) => n), (n) => {
        const i = Math.floor(Math.random() * FLAGS)
        return flags.replaceTargeting(PROJECT, `flag-${String(i).padStart(5, "0")}`, targetingInput(i, n))
      }, { discard: true, concurrency: 8 })
    )
    return {
      backend,
      seedSeconds: seeded.wall / 1000,
      loadWall: median(loads.map((l) => l.wall)),
      loadCpu: median(loads.map((l) => l.cpu)),
      compileWall: median(compiles.map((c) => c.wall)),
      snapshotMb: (withSnapshot - base) / 1e6,
      compiledMb: (withCompiled - withSnapshot) / 1e6,
      seqWritesPerSecond: sequential / (seq.wall / 1000),
      parWritesPerSecond: parallel / (par.wall / 1000),
      seqCpuMsPerWrite: seq.cpu / sequential,
      roundTripMs: ping.wall / 200,
      keep: [snapshot, compiled]
    }
  })

const runOn = (backend: string, storage: Layer.Layer<StorageLayer.Storage, unknown>) =>
  Effect.runPromise(Effect.scoped(Effect.provide(measure(backend), storage)))

const main = async () => {
  if (gc === undefined) console.warn("run with node --expose-gc for memory figures")
  const results = []
  const dir = mkdtempSync(join(os.tmpdir(), "flagport-bench-"))
  try {
    results.push(await runOn("SQLite", StorageLayer.fromDatabaseUrl(`sqlite:${join(dir, "bench.db")}`)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const external = process.env["FLAGPORT_BENCH_DATABASE_URL"]
  const postgres = external ? { url: external, stop: async () => {} } : await startEmbeddedPostgres()
  try {
    results.push(await runOn("PostgreSQL", StorageLayer.fromDatabaseUrl(postgres.url)))
  } finally {
    await postgres.stop()
  }
  const f = (n: number, digits = 0) => n.toFixed(digits)
  console.log(`\n${FLAGS} flags x ${ENVIRONMENTS.length} environments; ${os.cpus().length} x ${os.cpus()[0]?.model}; node ${process.version}; load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}\n`)
  console.log("| backend | snapshot load (median, wall / CPU) | compile | snapshot heap | compiled heap | targeting writes/s (1 fiber) | writes/s (8 fibers) | CPU per write | SELECT 1 round trip | seed |")
  console.log("|---|---|---|---|---|---|---|---|---|---|")
  for (const r of results) {
    console.log(
      `| ${r.backend} | ${f(r.loadWall)} ms / ${f(r.loadCpu)} ms | ${f(r.compileWall)} ms | ${f(r.snapshotMb, 1)} MB | ${f(r.compiledMb, 1)} MB | ${f(r.seqWritesPerSecond)} | ${f(r.parWritesPerSecond)} | ${f(r.seqCpuMsPerWrite, 1)} ms | ${f(r.roundTripMs, 2)} ms | ${f(r.seedSeconds, 1)} s |`
    )
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
