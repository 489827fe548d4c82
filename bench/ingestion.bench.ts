/**
 * Ingestion throughput (run by hand):
 * `flock /tmp/flagport-bench.lock nice -n -10 npx tsx bench/ingestion.bench.ts`
 * (BENCH_DURATION=seconds, default 60; BENCH_CONNECTIONS, default 8; BENCH_ITEMS per request,
 * default 500; BENCH_ONLY=sqlite|postgres; BENCH_PG_SETTINGS="name=value ..." for the embedded PostgreSQL; FLAGPORT_BENCH_DATABASE_URL=postgres://... instead of
 * the embedded PostgreSQL; BENCH_CPU_PROF=dir writes the server's CPU profile there).
 *
 * A Flagport server in a child process (this file bundled, as `npm start` runs the sources) on a
 * SQLite file, then on a PostgreSQL database, with a running experiment; autocannon posts
 * `POST /v1/exposures` batches of BENCH_ITEMS exposures, each of a new unit, with a batch id, as
 * fast as the server acknowledges them, for BENCH_DURATION seconds. Printed: accepted items per
 * second over the run and its slowest 10 s window, the p99 of a request, the child's RSS after the
 * warm-up (15 s) and at the end (and every 5 s on stderr), the server's CPU time per accepted item
 * (all threads, and its main thread, the event loop, alone; per thread name on stderr); then, with the server stopped, the experiment's rows counted in
 * the database: every acknowledged item must be there exactly once (one row per unit, one
 * variation), and nothing beyond what was sent (the requests in flight when the run ends may be
 * committed without their answer being read).
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { SqlClient } from "@effect/sql"
import autocannon from "autocannon"
import { Effect, type Layer } from "effect"
import * as StorageLayer from "../adapters/app/Composition.js"
import { startServer } from "../adapters/http/serving/Server.js"
import * as PgStorage from "../adapters/sql-pg/PgStorage.js"
import * as SqliteStorage from "../adapters/sql-sqlite/SqliteStorage.js"
import { ApiKeys } from "../src/services/auth/ApiKeys.js"
import { Experiments } from "../src/services/experiments/Experiments.js"
import { Flags } from "../src/services/flags/Flags.js"
import { Environments } from "../src/services/projects/Environments.js"
import { Projects } from "../src/services/projects/Projects.js"
import { startEmbeddedPostgres } from "../test/setup/EmbeddedPostgres.js"
import { bundledChildren } from "./bundled-children.js"
import { machineLine } from "./rotating-rounds.js"

const SELF = fileURLToPath(import.meta.url)
const DURATION = Number(process.env["BENCH_DURATION"] ?? 60)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 8)
const ITEMS = Number(process.env["BENCH_ITEMS"] ?? 500)
const ONLY = process.env["BENCH_ONLY"]
const WARM_UP_S = 15
const CPU_PROF = process.env["BENCH_CPU_PROF"]
/** Settings of the embedded PostgreSQL (`BENCH_PG_SETTINGS="shared_buffers=1GB max_wal_size=4GB"`); none: its defaults. */
const PG_SETTINGS = (process.env["BENCH_PG_SETTINGS"] ?? "").split(" ").filter((s) => s !== "")

// Child: a Flagport server with a running experiment on rule `half` of flag `exp-flag`.
const seed = Effect.gen(function* () {
  yield* (yield* Projects).create({ id: "bench", name: "Bench" })
  yield* (yield* Environments).create("bench", { key: "production", name: "Production" })
  const flags = yield* Flags
  yield* flags.create("bench", { key: "exp-flag", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  yield* flags.replaceTargeting("bench", "exp-flag", {
    environment: "production",
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ id: "half", conditions: [], rollout: { bucketBy: "key", variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }]
  })
  const experiments = yield* Experiments
  yield* experiments.create("bench", {
    key: "bench-exp",
    flagKey: "exp-flag",
    environment: "production",
    ruleId: "half",
    controlVariationKey: "off",
    metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
  })
  const started = yield* experiments.start("bench", "bench-exp")
  const key = yield* (yield* ApiKeys).create({ type: "client", projectId: "bench" })
  return { clientKey: key.secret, experimentId: started.id }
})

const serveFlagport = async (databaseUrl: string) => {
  const seeded = await Effect.runPromise(seed.pipe(Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl))))
  const server = await startServer({ port: 0, host: "127.0.0.1", databaseUrl, webhooks: false })
  process.stdout.write(`${JSON.stringify({ port: server.port, ...seeded })}\n`)
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)))
}

const { startChild } = bundledChildren(SELF)

/** CPU time (user + system) in seconds of a /proc stat file: fields 14 and 15. */
const statSeconds = (path: string): number => {
  const stat = readFileSync(path, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}
/**
 * CPU seconds of the PostgreSQL this bench started (its processes are descendants of this one; the
 * backends and autovacuum workers that ended are in their parent's cutime and cstime): 0 with an
 * external database. Also per kind of process (its title: backend, autovacuum, checkpointer,
 * walwriter...; "ended" for the ended ones), for where it goes.
 */
const postgresCpu = (): { total: number; byKind: Map<string, number> } => {
  let total = 0
  const byKind = new Map<string, number>()
  const add = (kind: string, seconds: number) => {
    total += seconds
    byKind.set(kind, (byKind.get(kind) ?? 0) + seconds)
  }
  const visit = (pid: number) => {
    let children: Array<number> = []
    try {
      children = readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter((c) => c !== "").map(Number))
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        const title = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim()
        const kind = title.startsWith("postgres: ") ? title.slice(10).replace(/ postgres postgres .*/, " backend").replace(/autovacuum worker.*/, "autovacuum worker") : "postmaster"
        add(kind, (Number(f[11]) + Number(f[12])) / 100)
        add("ended", (Number(f[13]) + Number(f[14])) / 100)
      }
    } catch {
      return
    }
    for (const child of children) visit(child)
  }
  visit(process.pid)
  return { total, byKind }
}

/** The process's CPU time so far: all its threads, and its main thread (the event loop) alone. */
const cpuSeconds = (pid: number): number => statSeconds(`/proc/${pid}/stat`)
const mainThreadSeconds = (pid: number): number => statSeconds(`/proc/${pid}/task/${pid}/stat`)
/** CPU seconds per thread name (SQLite's threads are "node" workers; libuv's, V8's), for where the rest goes. */
const threadSeconds = (pid: number): Map<string, number> => {
  const out = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim()
      const key = Number(tid) === pid ? "main" : name
      out.set(key, (out.get(key) ?? 0) + statSeconds(`/proc/${pid}/task/${tid}/stat`))
    } catch {
      // the thread ended meanwhile
    }
  }
  return out
}

const rssMiB = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))
  return Math.round(Number(line?.replace(/\D+/g, "") ?? 0) / 1024)
}

/** Rows of the experiment and the sum of their variations seen, counted by the database. */
const countRows = (client: Layer.Layer<SqlClient.SqlClient, unknown>, experimentId: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql`SELECT COUNT(*) AS units, SUM(variations_seen) AS seen FROM flagport_experiment_units WHERE experiment_id = ${experimentId}`
        const row = rows[0] as { units: number | string; seen: number | string }
        return { units: Number(row.units), seen: Number(row.seen) }
      }).pipe(Effect.provide(client))
    )
  )

const measure = async (name: string, databaseUrl: string, client: () => Layer.Layer<SqlClient.SqlClient, unknown>) => {
  const children: Array<ChildProcess> = []
  try {
    const flagport = await startChild(["serve-flagport", databaseUrl], undefined, CPU_PROF === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`])
    children.push(flagport.child)
    const { port, clientKey, experimentId } = flagport.info as { port: number; clientKey: string; experimentId: string }
    let requestCounter = 0
    let accepted = 0
    let refused = 0
    const bodyOf = () => {
      const n = requestCounter++
      const timestamp = new Date().toISOString()
      const exposures = Array.from({ length: ITEMS }, (_, i) => ({
        flagKey: "exp-flag",
        variationKey: i % 2 === 0 ? "on" : "off",
        ruleId: "half",
        unit: `u${n}-${i}`,
        timestamp
      }))
      return JSON.stringify({ environment: "production", batchId: `b${n}`, exposures })
    }
    const samples: Array<{ at: number; accepted: number; rss: number }> = []
    const pid = flagport.child.pid!
    const cpuAtStart = cpuSeconds(pid)
    const mainAtStart = mainThreadSeconds(pid)
    const threadsAtStart = threadSeconds(pid)
    const postgresAtStart = postgresCpu()
    const startedAt = performance.now()
    const sampler = setInterval(() => {
      samples.push({ at: (performance.now() - startedAt) / 1000, accepted, rss: rssMiB(pid) })
    }, 5_000)
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [{
        method: "POST",
        path: "/v1/exposures",
        headers: { authorization: `Bearer ${clientKey}`, "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: bodyOf() }),
        onResponse: (status, body) => {
          if (status === 202) accepted += (JSON.parse(body) as { accepted: number }).accepted
          else refused++
        }
      }]
    })
    clearInterval(sampler)
    const elapsed = (performance.now() - startedAt) / 1000
    samples.push({ at: elapsed, accepted, rss: rssMiB(pid) })
    // The server's CPU per accepted item (every thread: HTTP, decoding, the SQLite thread): what the
    // throughput costs, which a loaded machine does not change as much as the throughput itself.
    const cpuUs = ((cpuSeconds(pid) - cpuAtStart) * 1e6) / Math.max(1, accepted)
    const mainUs = ((mainThreadSeconds(pid) - mainAtStart) * 1e6) / Math.max(1, accepted)
    const threads = [...threadSeconds(pid)].map(([name, seconds]) => `${name} ${(((seconds - (threadsAtStart.get(name) ?? 0)) * 1e6) / Math.max(1, accepted)).toFixed(1)}`)
    const postgresAtEnd = postgresCpu()
    const postgresUs = ((postgresAtEnd.total - postgresAtStart.total) * 1e6) / Math.max(1, accepted)
    const postgresKinds = [...postgresAtEnd.byKind].map(([kind, seconds]) => `${kind} ${(((seconds - (postgresAtStart.byKind.get(kind) ?? 0)) * 1e6) / Math.max(1, accepted)).toFixed(1)}`)
    console.error(`${name} server CPU µs per item by thread: ${threads.join(", ")}; PostgreSQL's processes ${postgresUs.toFixed(1)} (${postgresKinds.join(", ")})`)
    flagport.child.kill("SIGTERM")
    await new Promise((resolve) => flagport.child.once("exit", resolve))
    children.length = 0
    const counted = await countRows(client(), experimentId)
    // Every acknowledged item is stored, nothing beyond what was sent (requests still in flight when
    // the run ended may have been committed unacknowledged), and each unit once with one variation.
    const sent = requestCounter * ITEMS
    const exact = counted.units >= accepted && counted.units <= sent && counted.seen === counted.units
    // The slowest 10 s window (two 5 s samples apart).
    let slowest = Infinity
    for (let i = 2; i < samples.length; i++) {
      const a = samples[i - 2]!
      const b = samples[i]!
      slowest = Math.min(slowest, (b.accepted - a.accepted) / (b.at - a.at))
    }
    const warm = samples.find((s) => s.at >= WARM_UP_S) ?? samples[0]!
    const last = samples[samples.length - 1]!
    const maxAfterWarm = Math.max(...samples.filter((s) => s.at >= WARM_UP_S).map((s) => s.rss))
    console.error(`${name} RSS MiB every 5 s: ${samples.map((s) => `${Math.round(s.at)}s ${s.rss}`).join(", ")}`)
    console.error(`${name} accepted items/s in each 5 s: ${samples.map((s, i) => (i === 0 ? s.accepted / s.at : (s.accepted - samples[i - 1]!.accepted) / (s.at - samples[i - 1]!.at))).map((r) => Math.round(r)).join(", ")}`)
    return (
      `| ${name} | ${Math.round(accepted / elapsed)} | ${Math.round(slowest)} | ${result.latency.p99} ms | ${refused} | ${cpuUs.toFixed(1)} (${mainUs.toFixed(1)}) | ` +
      `${warm.rss} / ${last.rss} / ${maxAfterWarm} MiB | ${accepted} | ${sent} | ${counted.units} | ${exact ? "yes" : "NO"} |`
    )
  } finally {
    for (const child of children) child.kill("SIGKILL")
  }
}

const main = async () => {
  const rows: Array<string> = []
  const dir = mkdtempSync(join(tmpdir(), "flagport-bench-ingest-"))
  try {
    if (ONLY === undefined || ONLY === "sqlite") {
      const filename = join(dir, "bench.db")
      rows.push(await measure("SQLite", `sqlite:${filename}`, () => SqliteStorage.layer({ filename })))
      console.error(rows[rows.length - 1])
    }
    if (ONLY === undefined || ONLY === "postgres") {
      const external = process.env["FLAGPORT_BENCH_DATABASE_URL"]
      const postgres = external ? { url: external, stop: async () => {} } : await startEmbeddedPostgres({ serverFlags: PG_SETTINGS.flatMap((setting) => ["-c", setting]) })
      try {
        rows.push(await measure("PostgreSQL", postgres.url, () => PgStorage.layer({ url: postgres.url })))
        console.error(rows[rows.length - 1])
      } finally {
        await postgres.stop()
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(machineLine())
  console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION}, POST /v1/exposures of ${ITEMS} exposures (each a new unit) with a batch id; RSS of the server after ${WARM_UP_S} s / at the end / highest after ${WARM_UP_S} s\n`)
  console.log("| database | accepted items/s | slowest 10 s | p99 request | non-202 | server CPU µs/item (main thread) | RSS | acknowledged | sent | rows counted | each once |")
  console.log("|---|---|---|---|---|---|---|---|---|---|---|")
  for (const row of rows) console.log(row)
}

const [mode, arg] = process.argv.slice(2)
if (mode === "serve-flagport") await serveFlagport(arg!)
else await main()
