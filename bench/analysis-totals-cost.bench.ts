/**
 * What the running totals' triggers cost SQLite's ingestion (run by hand, not a test):
 *
 *   flock /tmp/flagport-bench.lock nice -n -10 npx tsx bench/analysis-totals-cost.bench.ts
 *
 * The repository's write as the group commit calls it (`applyItems` in a transaction): 20 rounds
 * of 5,000 exposures of new units, then 5,000 metric events of those units, into a fresh SQLite
 * file, once with the triggers of migration 0032 and once with them dropped; both orders, so JIT
 * warm-up falls on each side once. Printed: wall time and this process's CPU (SQLite runs on its
 * worker threads, counted in the process).
 */
import { mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import * as StorageLayer from "../adapters/app/Composition.js"
import { ExperimentUnitRepository } from "../src/ports/ExperimentUnitRepository.js"
import { Transactor } from "../src/ports/Transactor.js"

const ROUNDS = 20
const PER = 5000
const run = (withTriggers: boolean, tag: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ExperimentUnitRepository
    const tx = yield* Transactor
    if (!withTriggers) {
      const names = yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'flagport_analysis_%'`
      for (const n of names) yield* sql.unsafe(`DROP TRIGGER ${n.name}`)
    }
    const t0 = Date.parse("2026-12-07T12:00:00.000Z")
    const cpu = process.cpuUsage()
    const start = performance.now()
    for (let r = 0; r < ROUNDS; r++) {
      const exposures = Array.from({ length: PER }, (_, i) => ({ experimentId: "e", unit: `${tag}-${r}-${i}`, variationKey: i % 2 ? "a" : "b", at: t0 + i }))
      const events = Array.from({ length: PER }, (_, i) => ({ experimentId: "e", metricKey: "m", unit: `${tag}-${r}-${(i * 7) % PER}`, at: t0 + 60_000 + i, value: i % 13, windowMs: null, preWindowMs: 0 }))
      yield* tx.withTransaction(repo.applyItems(exposures, []))
      yield* tx.withTransaction(repo.applyItems([], events))
    }
    const used = process.cpuUsage(cpu)
    return { withTriggers, wall: performance.now() - start, cpu: (used.user + used.system) / 1000 }
  })

const main = async () => {
  for (const order of [[true, false], [false, true]] as const) {
    for (const withTriggers of order) {
      const dir = mkdtempSync(join(os.tmpdir(), "totals-ab-"))
      try {
        const r = await Effect.runPromise(Effect.scoped(Effect.provide(run(withTriggers, "u"), StorageLayer.sqliteStorage(join(dir, "db.sqlite"), { listen: false }))))
        console.log(`${r.withTriggers ? "triggers   " : "no triggers"} wall ${r.wall.toFixed(0)} ms cpu ${r.cpu.toFixed(0)} ms (${ROUNDS} rounds x ${PER} new units + ${PER} events) load ${os.loadavg()[0]!.toFixed(1)}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}
main().catch((error) => {
  console.error(error)
  process.exit(1)
})
