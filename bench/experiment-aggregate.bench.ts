/**
 * The aggregate the experiment results run, one query per metric (run by hand, not a test):
 *
 *   flock /tmp/flagport-bench.lock nice -n -10 node --import tsx bench/experiment-aggregate.bench.ts [units=1000000]
 *
 * For SQLite (a temp file) and PostgreSQL (an embedded PostgreSQL started here, or
 * FLAGPORT_BENCH_DATABASE_URL when set: a database that may be wiped), after the migrations:
 * 1. loads UNITS units of one experiment (two variations, 1 in 100 exposed to both) and, for each
 *    of 5 metrics (conversion and mean alternating), a metric row for every unit (the worst case:
 *    every unit sent every event), plus a second experiment of UNITS/10 units beside it; loaded
 *    with set-based SQL (generate_series, a recursive CTE), not through the ingest path: this
 *    measures the read the results do, not ingestion;
 * 2. PostgreSQL: VACUUM ANALYZE after the load (autovacuum's steady state);
 * 3. runs ExperimentUnitRepository.metricArms (the full aggregate, kept as the reference) for each
 *    metric 5 times (the first warms the cache), then the same figures from the running totals the
 *    results read (`analysisTotals`, kept by the triggers while loading), and reports the median
 *    and the slowest of the other runs, wall clock, the CPU time of this process (SQLite's whole
 *    query runs in it; PostgreSQL's in the server: not counted), n, and how far the totals' sums
 *    are from the aggregate's (the same doubles added in another order).
 */
import { mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as StorageLayer from "../adapters/app/Composition.js"
import * as PgStorage from "../adapters/sql-pg/PgStorage.js"
import { metricArmsOf } from "../src/domain/experiments/AnalysisTotals.js"
import type { MetricArmTotals } from "../src/domain/experiments/UnitMetrics.js"
import { ExperimentUnitRepository } from "../src/ports/ExperimentUnitRepository.js"
import type { StorageError } from "../src/ports/StorageError.js"
import { startEmbeddedPostgres } from "../test/setup/EmbeddedPostgres.js"

const UNITS = Number(process.argv[2] ?? 1_000_000)
const METRICS = [0, 1, 2, 3, 4].map((i) => ({ key: `m${i}`, kind: i % 2 === 0 ? ("conversion" as const) : ("mean" as const) }))

/** The unit rows and metric rows of experiment `id` with `units` units, in SQL of the dialect. */
const load = (id: string, units: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const series = sql.onDialectOrElse({
      pg: () => sql.literal(`(SELECT i FROM generate_series(0, ${units - 1}) AS i) AS s`),
      orElse: () => sql.literal(`(WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ${units - 1}) SELECT i FROM c) AS s`)
    })
    const unit = sql.onDialectOrElse({ pg: () => sql.literal("'u' || lpad(i::text, 8, '0')"), orElse: () => sql.literal("'u' || printf('%08d', i)") })
    yield* sql`INSERT INTO flagport_experiment_units (experiment_id, unit, first_exposure_at, variation_key, variations_seen)
      SELECT ${id}, ${unit}, '2026-12-01T00:00:00.000Z', CASE WHEN i % 2 = 0 THEN 'on' ELSE 'off' END, CASE WHEN i % 100 = 0 THEN 2 ELSE 1 END FROM ${series}`
    for (const metric of METRICS) {
      yield* sql`INSERT INTO flagport_experiment_unit_metrics
        (experiment_id, metric_key, unit, variation_key, variations_seen, post_sum, post_count, pre_sum, pre_count)
        SELECT ${id}, ${metric.key}, ${unit}, CASE WHEN i % 2 = 0 THEN 'on' ELSE 'off' END, CASE WHEN i % 100 = 0 THEN 2 ELSE 1 END,
          (i * 37 % 1000) / 10.0, i % 3, (i * 53 % 700) / 10.0, i % 4 FROM ${series}`
    }
  })

/** The largest relative difference between two answers' sums (the same sums added in another order). */
const largestDifference = (a: ReadonlyArray<MetricArmTotals>, b: ReadonlyArray<MetricArmTotals>) => {
  if (a.length !== b.length) return Infinity
  let largest = 0
  a.forEach((arm, i) => {
    const other = b[i]!
    if (other.variationKey !== arm.variationKey) largest = Infinity
    for (const key of ["n", "sum", "sumSquares", "preSum", "preSumSquares", "crossSum"] as const) {
      const x = arm.moments[key]
      const y = other.moments[key]
      largest = Math.max(largest, x === y ? 0 : Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y)))
    }
  })
  return largest
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const measure = (backend: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ExperimentUnitRepository
    const loadStart = performance.now()
    yield* load("bench-exp", UNITS)
    yield* load("other-exp", Math.max(1, Math.floor(UNITS / 10)))
    yield* sql.onDialectOrElse({ pg: () => sql`VACUUM ANALYZE`, orElse: () => sql`ANALYZE` })
    const loadSeconds = (performance.now() - loadStart) / 1000
    const rows = []
    /** Five runs of `read`: the median and slowest of runs 2-5, the first, CPU, n, and the last answer. */
    const runs = (read: Effect.Effect<ReadonlyArray<MetricArmTotals>, StorageError>) =>
      Effect.gen(function* () {
        const times: Array<number> = []
        const cpu: Array<number> = []
        let arms: ReadonlyArray<MetricArmTotals> = []
        for (let run = 0; run < 5; run++) {
          const start = performance.now()
          const startCpu = process.cpuUsage()
          arms = yield* read
          const used = process.cpuUsage(startCpu)
          times.push(performance.now() - start)
          cpu.push((used.user + used.system) / 1000)
        }
        const warm = times.slice(1)
        return { arms, n: arms.reduce((total, arm) => total + arm.moments.n, 0), median: median(warm), slowest: Math.max(...warm), first: times[0]!, cpu: median(cpu.slice(1)) }
      })
    for (const metric of METRICS) {
      const full = yield* runs(repo.metricArms("bench-exp", metric))
      // What the results read now: the running totals (the triggers kept them while loading).
      const kept = yield* runs(Effect.map(repo.analysisTotals("bench-exp"), (totals) => metricArmsOf(totals, metric)))
      const name = `${metric.key} (${metric.kind})`
      rows.push({ backend, metric: name, read: "full aggregate", ...full, differs: 0 })
      rows.push({ backend, metric: name, read: "running totals", ...kept, differs: largestDifference(full.arms, kept.arms) })
    }
    return { rows, loadSeconds }
  })

const runOn = <E>(storage: Layer.Layer<StorageLayer.Storage | SqlClient.SqlClient, E>) => Effect.runPromise(Effect.scoped(Effect.provide(measure(""), storage)))

const main = async () => {
  const results: Array<{ backend: string; rows: Awaited<ReturnType<typeof runOn>>["rows"]; loadSeconds: number }> = []
  const dir = mkdtempSync(join(os.tmpdir(), "flagport-bench-"))
  try {
    results.push({ backend: "SQLite", ...(await runOn(StorageLayer.sqliteStorage(join(dir, "bench.db"), { listen: false }))) })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const external = process.env["FLAGPORT_BENCH_DATABASE_URL"]
  const postgres = external ? { url: external, stop: async () => {} } : await startEmbeddedPostgres()
  try {
    results.push({ backend: "PostgreSQL", ...(await runOn(StorageLayer.postgresStorage(PgStorage.layer({ url: postgres.url }), { listen: false }))) })
  } finally {
    await postgres.stop()
  }
  console.log(`\n${UNITS.toLocaleString("en-US")} units x ${METRICS.length} metrics (+ ${Math.floor(UNITS / 10).toLocaleString("en-US")} units of another experiment); ${os.cpus().length} x ${os.cpus()[0]?.model}; node ${process.version}; load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}\n`)
  console.log("| backend | metric | read | units analysed | first run | median (wall) | slowest (runs 2-5) | this process's CPU (median) | largest relative difference from the full aggregate | load |")
  console.log("|---|---|---|---|---|---|---|---|---|---|")
  const ms = (value: number) => (value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(0)} ms`)
  for (const r of results) {
    for (const row of r.rows) {
      console.log(`| ${r.backend} | ${row.metric} | ${row.read} | ${row.n.toLocaleString("en-US")} | ${ms(row.first)} | ${ms(row.median)} | ${ms(row.slowest)} | ${ms(row.cpu)} | ${row.differs.toExponential(1)} | ${r.loadSeconds.toFixed(0)} s |`)
    }
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
