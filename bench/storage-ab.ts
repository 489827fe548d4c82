/**
 * In-process A/B of reading flags out of SQL (run by hand):
 *
 *   node --import tsx bench/storage-ab.ts [REV=HEAD] [FLAGS=10000] [ROUNDS=12]
 *
 * Compares the working tree's `adapters/sql/SqlFlagRepository.ts` (B) with the one at git
 * revision REV (A), both over one SqlClient and one database seeded once (the flags of
 * bench/storage.bench.ts: FLAGS string flags with 3 variations and 2 rules in each of 3
 * environments). Rounds alternate A and B (who goes first alternates too), so both see the same
 * machine; each round changes one flag's production rules, then times `snapshotFlags(project,
 * "production")` (the read behind a snapshot load) twice, with the repository kept since the start
 * (a reload after a write) and with one made afresh (a first read), then `list(project)`. Process
 * CPU time is reported (wall time follows the machine's load), medians and the ratios B / A. Before timing, A and B must read the same flags.
 * SQLite is a temp file; PostgreSQL an embedded server started here (or
 * FLAGPORT_BENCH_DATABASE_URL, a database that may be wiped).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { isDeepStrictEqual } from "node:util"
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import * as PgStorage from "../adapters/sql-pg/PgStorage.js"
import * as SqliteStorage from "../adapters/sql-sqlite/SqliteStorage.js"
import * as Migrations from "../adapters/sql/Migrations.js"
import * as SqlFlagRepository from "../adapters/sql/SqlFlagRepository.js"
import type { Flag } from "../src/domain/definitions/Flag.js"
import type { Rule } from "../src/domain/definitions/Targeting.js"
import type { FlagRepositoryShape } from "../src/ports/FlagRepository.js"
import { startEmbeddedPostgres } from "../test/setup/EmbeddedPostgres.js"

const [rev = "HEAD", flagsArg = "10000", roundsArg = "12"] = process.argv.slice(2)
const FLAGS = Number(flagsArg)
const ROUNDS = Number(roundsArg)
const ENVIRONMENTS = ["development", "staging", "production"]
const PROJECT = "bench"

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
  configs: ENVIRONMENTS.map((environmentKey) => ({ environmentKey, enabled: i % 2 === 0, defaultVariationKey: "b", offVariationKey: "c", rules: rulesFor(i, environmentKey) })),
  createdAt: now,
  updatedAt: now,
  version: 1
})

const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

/** Process CPU milliseconds of one run of `effect`. */
const cpu = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const start = process.cpuUsage()
    return Effect.map(effect, () => {
      const used = process.cpuUsage(start)
      return (used.user + used.system) / 1000
    })
  })

const measure = (backend: string, makeA: typeof SqlFlagRepository.make) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* Migrations.run
    const a: FlagRepositoryShape = yield* makeA
    const b: FlagRepositoryShape = yield* SqlFlagRepository.make
    const now = new Date().toISOString()
    yield* sql`INSERT INTO flagport_projects ${sql.insert({ id: PROJECT, name: "Benchmark", revision: 1, created_at: now, updated_at: now })}`
    for (const [i, key] of ENVIRONMENTS.entries()) {
      yield* sql`INSERT INTO flagport_environments ${sql.insert({ id: `env-${i}`, project_id: PROJECT, key, name: key, created_at: now })}`
    }
    for (let start = 0; start < FLAGS; start += 1000) {
      yield* sql.withTransaction(
        Effect.forEach(Array.from({ length: Math.min(1000, FLAGS - start) }, (_, j) => start + j), (i) => b.insert(PROJECT, flagFor(i, now)), {
          discard: true
        })
      )
    }
    const [snapshotA, snapshotB, listA, listB] = yield* Effect.all([
      a.snapshotFlags(PROJECT, "production"),
      b.snapshotFlags(PROJECT, "production"),
      a.list(PROJECT),
      b.list(PROJECT)
    ])
    // Since per-environment ETags, B's configurations also carry their version (stored since
    // migration 0011; A did not read it): compare what both read.
    const withoutConfigVersions = (flags: ReadonlyArray<Flag>) =>
      flags.map((flag) => ({ ...flag, configs: flag.configs.map(({ version: _version, ...config }) => config) }))
    if (
      snapshotB.length !== FLAGS || !isDeepStrictEqual(snapshotA, snapshotB) ||
      !isDeepStrictEqual(withoutConfigVersions(listA), withoutConfigVersions(listB))
    ) {
      throw new Error("A and B read different flags")
    }
    // Rounds: one flag's production rules changed (not timed), then A and B each reload the
    // environment with the repository they kept (a reload after a write), read it with a
    // repository made afresh (a first read: nothing remembered), and list the project.
    const times: Record<"reloadA" | "reloadB" | "firstA" | "firstB" | "listA" | "listB", Array<number>> = {
      reloadA: [], reloadB: [], firstA: [], firstB: [], listA: [], listB: []
    }
    const write = (r: number) =>
      sql`UPDATE flagport_flag_configs SET rules = ${JSON.stringify(rulesFor(FLAGS + r, "production"))}, version = version + 1
        WHERE flag_id = ${`flag-${(r * 7919) % FLAGS}`} AND environment_id = 'env-2'`
    const round = (repo: FlagRepositoryShape, make: typeof SqlFlagRepository.make, side: "A" | "B") =>
      Effect.gen(function* () {
        times[`reload${side}`].push(yield* cpu(repo.snapshotFlags(PROJECT, "production")))
        const fresh = yield* make
        times[`first${side}`].push(yield* cpu(fresh.snapshotFlags(PROJECT, "production")))
        times[`list${side}`].push(yield* cpu(repo.list(PROJECT)))
      })
    for (let r = -1; r < ROUNDS; r++) {
      if (r === 0) for (const list of Object.values(times)) list.length = 0
      yield* write(r + 1)
      if (r % 2 === 0) yield* Effect.zipRight(round(a, makeA, "A"), round(b, SqlFlagRepository.make, "B"))
      else yield* Effect.zipRight(round(b, SqlFlagRepository.make, "B"), round(a, makeA, "A"))
    }
    const [lastA, lastB] = yield* Effect.all([a.snapshotFlags(PROJECT, "production"), b.snapshotFlags(PROJECT, "production")])
    if (!isDeepStrictEqual(lastA, lastB)) throw new Error("A and B read different flags after the writes")
    const ms = (xs: ReadonlyArray<number>) => `${median(xs).toFixed(0)} ms`
    const pair = (as: ReadonlyArray<number>, bs: ReadonlyArray<number>) => `${ms(as)} | ${ms(bs)} | **${(median(bs) / median(as)).toFixed(3)}**`
    return `| ${backend} | ${pair(times.firstA, times.firstB)} | ${pair(times.reloadA, times.reloadB)} | ${pair(times.listA, times.listB)} |`
  })

const main = async () => {
  // Inside the checkout (.tmp/ is ignored by git), so the old sources resolve their packages from
  // this checkout's node_modules.
  const scratch = fileURLToPath(new URL("../.tmp/", import.meta.url))
  mkdirSync(scratch, { recursive: true })
  const dir = mkdtempSync(join(scratch, "storage-ab-"))
  const rows: Array<string> = []
  try {
    execFileSync("tar", ["-x", "-C", dir], { input: execFileSync("git", ["archive", rev, "src", "adapters"], { maxBuffer: 1 << 28 }) })
    const old = (await import(pathToFileURL(join(dir, "adapters/sql/SqlFlagRepository.ts")).href)) as typeof SqlFlagRepository
    const run = (backend: string, client: Layer.Layer<SqlClient.SqlClient, unknown>) =>
      Effect.runPromise(Effect.scoped(Effect.provide(measure(backend, old.make), client)))
    rows.push(await run("SQLite", SqliteStorage.layer({ filename: join(dir, "bench.db") })))
    const external = process.env["FLAGPORT_BENCH_DATABASE_URL"]
    const postgres = external ? { url: external, stop: async () => {} } : await startEmbeddedPostgres()
    try {
      rows.push(await run("PostgreSQL", PgStorage.layer({ url: postgres.url })))
    } finally {
      await postgres.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(`\n${FLAGS} flags x ${ENVIRONMENTS.length} environments, ${ROUNDS} rounds; A: ${rev}, B: working tree; process CPU time, medians\n`)
  console.log("| backend | first read A | first read B | B / A | reload after a write A | B | B / A | list A | list B | B / A |")
  console.log("|---|---|---|---|---|---|---|---|---|---|")
  for (const row of rows) console.log(row)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
