/**
 * Targeting writes per second (run by hand):
 * `npx tsx bench/targeting-writes.bench.ts [CHECKOUT...]` (on a quiet machine: docs/operations/benchmarks.md)
 * (BENCH_DURATION=seconds, default 20; BENCH_CONNECTIONS, default 32; BENCH_ONLY=sqlite|postgres;
 * BENCH_CPU_PROF=dir writes each server's CPU profile there).
 *
 * For each checkout (default: this one), a Flagport server in a child process (this file copied
 * into the checkout's bench/ and bundled, as `npm start` runs the sources, so each checkout runs
 * its own code) on a fresh SQLite file, then on a fresh database of one embedded PostgreSQL, with
 * 50 flags shaped like W2 of the foundation issue and one webhook subscribed to every event (its
 * URL answers nothing: the outbox fills, deliveries are not the subject). autocannon sends
 * `PUT /v1/projects/bench/flags/{random of 50}/targeting` with a server key on BENCH_CONNECTIONS
 * connections (a closed loop: each connection sends its next write once the last is answered) for
 * BENCH_DURATION seconds after a 3 s warm-up.
 *
 * Printed per checkout and database: writes answered 200 per second, p50/p99 of a write, non-200
 * answers, the server's CPU per write (all threads; main thread alone), PostgreSQL's CPU per write,
 * and, with the server stopped, the audit entries and outbox events counted in the database: each
 * acknowledged write has its own (at least as many as the 200s, at most as many as were sent).
 *
 * The file stands alone (the W2 targeting and the /proc readings are written out here, as in
 * mixed-load and ingestion) because it is copied into older checkouts, whose bench/ lacks any
 * module added after them.
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { bundledChildren } from "./bundled-children.js"
import { machineLine } from "./rotating-rounds.js"

const SELF = fileURLToPath(import.meta.url)
const HERE = resolve(SELF, "../..")
const DURATION = Number(process.env["BENCH_DURATION"] ?? 20)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 32)
const ONLY = process.env["BENCH_ONLY"]
const CPU_PROF = process.env["BENCH_CPU_PROF"]
const FLAGS = 50

const w2Targeting = (enabled: boolean) => ({
  environment: "production",
  enabled,
  defaultVariationKey: "C",
  offVariationKey: "C",
  rules: [
    {
      conditions: [
        { attribute: "country", operator: "in", values: ["US", "CA", "MX"] },
        { attribute: "plan", operator: "in", values: ["pro", "enterprise"] }
      ],
      variationKey: "A"
    },
    { conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }], variationKey: "B" },
    { conditions: [], rollout: { bucketBy: "key", variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "C", weight: 50_000 }] } }
  ]
})

// ------------------------------------------------------------------------------------------------
// Child: a server on `databaseUrl`, seeded through the use cases (imported lazily, so the parent
// process, which runs from this checkout, never loads another checkout's modules).
// ------------------------------------------------------------------------------------------------

const serveFlagport = async (databaseUrl: string) => {
  const { Effect } = await import("effect")
  const StorageLayer = await import("../adapters/app/Composition.js")
  const { startServer } = await import("../adapters/http/serving/Server.js")
  const { ApiKeys } = await import("../src/services/auth/ApiKeys.js")
  const { Flags } = await import("../src/services/flags/Flags.js")
  const { Environments } = await import("../src/services/projects/Environments.js")
  const { Projects } = await import("../src/services/projects/Projects.js")
  const WebhooksModule = await import("../src/services/webhooks/Webhooks.js")
  const { Webhooks } = WebhooksModule
  const seed = Effect.gen(function* () {
    yield* (yield* Projects).create({ id: "bench", name: "Bench" })
    yield* (yield* Environments).create("bench", { key: "production", name: "Production" })
    const flags = yield* Flags
    for (let i = 0; i < FLAGS; i++) {
      const key = `w2-flag-${i}`
      yield* flags.create("bench", { key, name: key, type: "string", variations: [{ key: "A", value: "a" }, { key: "B", value: "b" }, { key: "C", value: "c" }] })
      yield* flags.replaceTargeting("bench", key, w2Targeting(true) as never)
    }
    yield* (yield* Webhooks).create("bench", { url: "http://127.0.0.1:9/hook", events: ["targeting.updated", "flag.updated"] } as never)
    const key = yield* (yield* ApiKeys).create({ type: "server", projectId: "bench" } as never)
    return { serverKey: key.secret }
  })
  const seeded = await Effect.runPromise(seed.pipe(Effect.provide(WebhooksModule.layer), Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl))) as never) as { serverKey: string }
  const server = await startServer({ port: 0, host: "127.0.0.1", databaseUrl, webhooks: false })
  process.stdout.write(`${JSON.stringify({ port: server.port, ...seeded })}\n`)
  process.on("SIGTERM", () => void server.close().then(() => process.exit(0)))
}

/** Counts a table's rows in the database (the server stopped), with the checkout's own storage. */
const countRows = async (databaseUrl: string) => {
  const { Effect } = await import("effect")
  const { SqlClient } = await import("@effect/sql")
  const StorageLayer = await import("../adapters/app/Composition.js")
  const counted = await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const audit = yield* sql`SELECT COUNT(*) AS n FROM flagport_audit_log WHERE action = 'targeting.updated'`
        const outbox = yield* sql`SELECT COUNT(*) AS n FROM flagport_outbox`
        return { audit: Number((audit[0] as { n: unknown }).n), outbox: Number((outbox[0] as { n: unknown }).n) }
      }).pipe(Effect.provide(StorageLayer.fromDatabaseUrl(databaseUrl)))
    ) as never
  )
  process.stdout.write(`${JSON.stringify(counted)}\n`)
  process.exit(0)
}

// ------------------------------------------------------------------------------------------------
// Parent
// ------------------------------------------------------------------------------------------------

const statSeconds = (path: string): number => {
  const stat = readFileSync(path, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}
const cpuSeconds = (pid: number) => statSeconds(`/proc/${pid}/stat`)
const mainThreadSeconds = (pid: number) => statSeconds(`/proc/${pid}/task/${pid}/stat`)

/** CPU seconds of the PostgreSQL processes below this one (ended backends in their parent's cutime). */
const postgresSeconds = (): number => {
  let total = 0
  const visit = (pid: number) => {
    let children: Array<number> = []
    try {
      children = readdirSync(`/proc/${pid}/task`).flatMap((tid) => readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter((c) => c !== "").map(Number))
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        total += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100
      }
    } catch {
      return
    }
    for (const child of children) visit(child)
  }
  visit(process.pid)
  return total
}

const describeCheckout = (checkout: string) => {
  try {
    return `${checkout === HERE ? "." : checkout} @ ${execFileSync("git", ["-C", checkout, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()}`
  } catch {
    return checkout
  }
}

const measure = async (checkout: string, startChild: ReturnType<typeof bundledChildren>["startChild"], name: string, databaseUrl: string) => {
  const flagport = await startChild(["serve-flagport", databaseUrl], undefined, CPU_PROF === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`])
  let sent = 0
  let ok = 0
  let other = 0
  let flip = false
  try {
    const { port, serverKey } = flagport.info as { port: number; serverKey: string }
    const request = (counting: boolean) => ({
      method: "PUT" as const,
      path: "/v1/projects/bench/flags/w2-flag-0/targeting",
      headers: { authorization: `Bearer ${serverKey}`, "content-type": "application/json" },
      setupRequest: (req: { path: string; body?: string }) => {
        flip = !flip
        if (counting) sent++
        return { ...req, path: `/v1/projects/bench/flags/w2-flag-${Math.floor(Math.random() * FLAGS)}/targeting`, body: JSON.stringify(w2Targeting(flip)) }
      },
      onResponse: (status: number) => {
        if (!counting) return
        if (status === 200) ok++
        else other++
      }
    })
    await autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: 3, requests: [request(false)] })
    const pid = flagport.child.pid!
    const cpuAtStart = cpuSeconds(pid)
    const mainAtStart = mainThreadSeconds(pid)
    const pgAtStart = postgresSeconds()
    const startedAt = performance.now()
    const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: DURATION, requests: [request(true)] })
    const elapsed = (performance.now() - startedAt) / 1000
    const cpuMs = ((cpuSeconds(pid) - cpuAtStart) * 1000) / Math.max(1, ok)
    const mainMs = ((mainThreadSeconds(pid) - mainAtStart) * 1000) / Math.max(1, ok)
    const pgMs = ((postgresSeconds() - pgAtStart) * 1000) / Math.max(1, ok)
    flagport.child.kill("SIGTERM")
    await new Promise((r) => flagport.child.once("exit", r))
    const counter = await startChild(["count", databaseUrl])
    const counted = counter.info as { audit: number; outbox: number }
    // Seeding wrote FLAGS targeting entries and events, the warm-up some more: those are not this run's.
    return (
      `| ${describeCheckout(checkout)} | ${name} | **${Math.round(ok / elapsed)}** | ${result.latency.average} ms | ${result.latency.p99} ms | ${other} | ` +
      `${cpuMs.toFixed(2)} (${mainMs.toFixed(2)}) | ${name === "PostgreSQL" ? pgMs.toFixed(2) : "-"} | ${counted.audit} / ${counted.outbox} |`
    )
  } finally {
    flagport.child.kill("SIGKILL")
  }
}

const main = async () => {
  const checkouts = process.argv.slice(2).map((c) => resolve(c))
  const rows: Array<string> = []
  const dir = mkdtempSync(join(tmpdir(), "flagport-bench-writes-"))
  const copies: Array<string> = []
  let postgres: { url: string; stop: () => Promise<void> } | undefined
  try {
    let database = 0
    for (const checkout of checkouts.length === 0 ? [HERE] : checkouts) {
      // This file inside the checkout, so that its bundle is made of that checkout's sources.
      const copy = checkout === HERE ? SELF : join(checkout, "bench", `.targeting-writes-${process.pid}.bench.ts`)
      if (copy !== SELF) {
        copyFileSync(SELF, copy)
        copies.push(copy)
      }
      const { startChild } = bundledChildren(copy)
      if (ONLY === undefined || ONLY === "sqlite") {
        rows.push(await measure(checkout, startChild, "SQLite", `sqlite:${join(dir, `bench-${database++}.db`)}`))
        console.error(rows[rows.length - 1])
      }
      if (ONLY === undefined || ONLY === "postgres") {
        if (postgres === undefined) {
          const { startEmbeddedPostgres } = await import("../test/setup/EmbeddedPostgres.js")
          postgres = await startEmbeddedPostgres()
        }
        // A fresh database per run, on the one server.
        const name = `bench_writes_${database++}`
        const pg = await import("pg")
        const admin = new pg.default.Client({ connectionString: postgres.url })
        await admin.connect()
        await admin.query(`CREATE DATABASE ${name}`)
        await admin.end()
        const url = new URL(postgres.url)
        url.pathname = `/${name}`
        rows.push(await measure(checkout, startChild, "PostgreSQL", url.toString()))
        console.error(rows[rows.length - 1])
      }
    }
  } finally {
    await postgres?.stop()
    for (const copy of copies) rmSync(copy, { force: true })
    rmSync(dir, { recursive: true, force: true })
  }
  console.log(machineLine())
  console.log(`autocannon -c ${CONNECTIONS} -d ${DURATION} (after a 3 s warm-up): PUT targeting of one of ${FLAGS} W2 flags, a server key, one webhook on every event\n`)
  console.log("| checkout | database | writes/s | mean latency | p99 | non-200 | server CPU ms/write (main thread) | PostgreSQL CPU ms/write | targeting audit entries / outbox events in the database |")
  console.log("|---|---|---|---|---|---|---|---|---|")
  for (const row of rows) console.log(row)
}

const [mode, arg] = process.argv.slice(2)
if (mode === "serve-flagport") await serveFlagport(arg!)
else if (mode === "count") await countRows(arg!)
else await main()
