/**
 * First read of an environment (run by hand): `npx tsx bench/first-read.bench.ts [FLAGS] [ROUNDS]`
 * (defaults 10000, 7). BENCH_PROFILE=FILE writes a CPU profile of the timed rounds (not the seeding) to FILE.
 *
 * What a server pays the first time it evaluates in an environment (a cold process, or an
 * environment not read before): `Snapshots.snapshot` (revision, the flags' rows, segments,
 * experiments, revision again; every row decoded and checked) and `Evaluate.compileOnDemand` of the
 * result (what the evaluation lane's cache does: each flag is compiled when first evaluated).
 * Seeds one SQLite file (project `bench`, environment `production`, FLAGS flags shaped like W2 of
 * the evaluator benchmark, written straight through the repository), then per round opens the
 * storage afresh (nothing remembered from an earlier read; opening is not timed) and times, in
 * process CPU and wall time:
 *   - floor: the snapshot's flag query alone through the same SqlClient, plus ONE `JSON.parse` of
 *     all its rows' JSON columns joined into one text (what reading the rows cannot go under);
 *   - first read: `Snapshots.snapshot(bench, production)`;
 *   - compile on demand: `Evaluate.compileOnDemand` of that snapshot, then one evaluation of one
 *     flag (what the server pays before its first answer);
 *   - compile all: `Evaluate.compile` of the same snapshot (every flag at once; what evaluating
 *     every flag costs, spread over the first evaluations of each).
 * Prints the medians and ranges over ROUNDS, and first read / floor.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "@effect/sql/SqlClient"
import * as StorageLayer from "../adapters/app/Composition.js"
import type { Flag } from "../src/domain/definitions/Flag.js"
import * as Evaluate from "../src/domain/evaluation/Evaluate.js"
import { FlagRepository } from "../src/ports/FlagRepository.js"
import { Transactor } from "../src/ports/Transactor.js"
import { Environments } from "../src/services/projects/Environments.js"
import { Projects } from "../src/services/projects/Projects.js"
import { Snapshots } from "../src/services/evaluation/Snapshots.js"
import { machineLine } from "./rotating-rounds.js"
import { w2Flag } from "./workloads.js"

const FLAGS = Number(process.argv[2] ?? 10_000)
const ROUNDS = Number(process.argv[3] ?? 7)
const PROJECT = "bench"

const flagFor = (i: number, now: string): Flag => {
  const w2 = w2Flag(`w2-flag-${i}`)
  return {
    id: `flag-${i}`,
    key: w2.key,
    name: `Flag ${i}`,
    description: null,
    type: "string",
    variations: w2.variations.map((v) => ({ key: v.key, value: v.value })),
    configs: [{ environmentKey: "production", enabled: true, defaultVariationKey: "C", offVariationKey: "C", rules: w2.rules }],
    createdAt: now,
    updatedAt: now,
    version: 1
  }
}

const seed = Effect.gen(function* () {
  yield* (yield* Projects).create({ id: PROJECT, name: "Bench" })
  yield* (yield* Environments).create(PROJECT, { key: "production", name: "Production" })
  const repo = yield* FlagRepository
  const tx = yield* Transactor
  const now = new Date().toISOString()
  for (let start = 0; start < FLAGS; start += 1000) {
    const batch = Array.from({ length: Math.min(1000, FLAGS - start) }, (_, j) => start + j)
    yield* tx.withTransaction(Effect.forEach(batch, (i) => repo.insert(PROJECT, flagFor(i, now)), { discard: true }))
  }
})

interface Timing {
  readonly cpu: number
  readonly wall: number
}
const timed = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<[A, Timing], E, R> =>
  Effect.suspend(() => {
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    return Effect.map(effect, (a): [A, Timing] => {
      const used = process.cpuUsage(cpu0)
      return [a, { cpu: (used.user + used.system) / 1000, wall: performance.now() - t0 }]
    })
  })

/** The floor: the flags' rows as the snapshot reads them, and one JSON.parse of all their JSON columns. */
const floor = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ variations: string; prerequisites: string; rules: string }>`SELECT f.key, f.type, f.variations, c.version, c.enabled,
      c.default_variation_key, c.off_variation_key, c.prerequisites, c.rules
    FROM flagport_flags f JOIN flagport_flag_configs c ON c.flag_id = f.id JOIN flagport_environments e ON e.id = c.environment_id
    WHERE f.project_id = ${PROJECT} AND e.project_id = ${PROJECT} AND e.key = 'production' ORDER BY f.seq`
  let text = "["
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    text += `${i === 0 ? "" : ","}[${r.variations},${r.prerequisites},${r.rules}]`
  }
  return (JSON.parse(text + "]") as Array<unknown>).length
})

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
const show = (xs: ReadonlyArray<number>) => `${median(xs).toFixed(1)} ms (${Math.min(...xs).toFixed(1)} to ${Math.max(...xs).toFixed(1)})`

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), "flagport-first-read-"))
  const storage = StorageLayer.sqliteStorage(join(dir, "bench.db"), { listen: false })
  try {
    await Effect.runPromise(Effect.provide(seed, storage))
    console.log(`seeded ${FLAGS} flags; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`)
    const profile = process.env["BENCH_PROFILE"]
    const session = profile === undefined ? undefined : new Session()
    if (session !== undefined) {
      session.connect()
      await session.post("Profiler.enable")
      await session.post("Profiler.setSamplingInterval", { interval: 100 })
      await session.post("Profiler.start")
    }
    const floors: Array<Timing> = []
    const reads: Array<Timing> = []
    const compiles: Array<Timing> = []
    const onDemand: Array<Timing> = []
    for (let r = 0; r < ROUNDS; r++) {
      // A fresh storage each round: nothing of an earlier read is remembered.
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const context = yield* Layer.build(storage)
            const [count, f] = yield* Effect.provide(timed(floor), context)
            const [read, t] = yield* timed((yield* Effect.provide(Snapshots, context)).snapshot(PROJECT, "production"))
            const [answer, d] = yield* timed(
              Effect.sync(() => Evaluate.evaluate(Evaluate.compileOnDemand(read.snapshot), "w2-flag-7", { key: "user-42", attributes: { country: "US", plan: "pro" } }))
            )
            const [compiled, c] = yield* timed(Effect.sync(() => Evaluate.compile(read.snapshot)))
            if (count !== FLAGS || compiled.ordered.length !== FLAGS) throw new Error(`expected ${FLAGS} flags, read ${count} and ${compiled.ordered.length}`)
            if (answer.reason.kind !== "RULE_MATCH") throw new Error(`expected a rule match, got ${JSON.stringify(answer)}`)
            floors.push(f)
            reads.push(t)
            onDemand.push(d)
            compiles.push(c)
            console.log(`round ${r + 1}: floor ${f.cpu.toFixed(1)} ms, first read ${t.cpu.toFixed(1)} ms, on demand + 1 evaluation ${d.cpu.toFixed(1)} ms, compile all ${c.cpu.toFixed(1)} ms (CPU)`)
          })
        )
      )
    }
    if (session !== undefined) {
      const { profile: taken } = await session.post("Profiler.stop")
      writeFileSync(profile!, JSON.stringify(taken))
      session.disconnect()
    }
    const ratios = reads.map((t, i) => t.cpu / floors[i]!.cpu)
    console.log(`${FLAGS} flags, ${ROUNDS} rounds, medians (range), CPU / wall:`)
    console.log(`  floor (query + one JSON.parse): ${show(floors.map((t) => t.cpu))} / ${show(floors.map((t) => t.wall))}`)
    console.log(`  first read (Snapshots.snapshot): ${show(reads.map((t) => t.cpu))} / ${show(reads.map((t) => t.wall))}`)
    console.log(`  compileOnDemand + 1 evaluation:  ${show(onDemand.map((t) => t.cpu))} / ${show(onDemand.map((t) => t.wall))}`)
    console.log(`  first read + on demand (served): ${show(reads.map((t, i) => t.cpu + onDemand[i]!.cpu))} / ${show(reads.map((t, i) => t.wall + onDemand[i]!.wall))}`)
    console.log(`  compile all (Evaluate.compile):  ${show(compiles.map((t) => t.cpu))} / ${show(compiles.map((t) => t.wall))}`)
    console.log(`  first read + compile all:        ${show(reads.map((t, i) => t.cpu + compiles[i]!.cpu))} / ${show(reads.map((t, i) => t.wall + compiles[i]!.wall))}`)
    console.log(`  first read / floor (CPU), per round: median ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)})`)
    console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}${machineLine()}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
