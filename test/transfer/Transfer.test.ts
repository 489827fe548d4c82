/**
 * `transfer` (adapters/storage/Transfer.ts) on real databases: a SQLite file filled through a real
 * server with every kind of record is moved to PostgreSQL (the suite's embedded server) and from
 * there to a new SQLite file; on each target a real server answers as the source did (the same
 * keys, evaluations, audit log, stream token, sign-in, webhook signatures) and takes new writes.
 * A non-empty target is refused and left as it was; the source's rows never change.
 */
import { createHash } from "node:crypto"
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createRequire } from "node:module"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"
import * as Migrations from "../../adapters/sql/Migrations.js"
import { SEEDED_BY_MIGRATIONS } from "../../adapters/sql/transfer/TransferChecks.js"
import { sqlClientFor } from "../../adapters/storage/Ports.js"
import { isIdentical, transfer, type TransferReport } from "../../adapters/storage/Transfer.js"
import { signer } from "../../src/domain/webhooks/WebhookSigning.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { request, startServer } from "../http/fixtures.js"
import { auditOf, evaluateAll, fillSource, receiver, type Receiver, type SourceFacts, waitFor, WEBHOOK_SECRET } from "./SourceServer.js"

/** better-sqlite3 (the driver under @effect/sql-sqlite-node), to read and shape files beside the code under test. */
interface RawDb {
  prepare(sql: string): { all(): Array<unknown> }
  exec(sql: string): void
  close(): void
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (filename: string, options?: { readonly readonly?: boolean }) => RawDb

const scope = Effect.runSync(Scope.make())
const dir = mkdtempSync(join(tmpdir(), "flagport-transfer-"))
const sourceFile = join(dir, "source.db")
let hooks: { ok: Receiver; failing: Receiver }
let facts: SourceFacts
let sourceRows: Record<string, Array<unknown>>
let sourceDigest: string

/** The SHA-256 of a file's bytes. */
const digestOf = (filename: string) => createHash("sha256").update(readFileSync(filename)).digest("hex")

/** Every row of every table of a SQLite file, read-only, in an order of their content (not of insertion). */
const rowsOf = (filename: string) => {
  const db = new Database(filename, { readonly: true })
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>
    const sorted = (rows: Array<unknown>) => rows.map((row) => [JSON.stringify(row), row] as const).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row)
    return Object.fromEntries(tables.map(({ name }) => [name, sorted(db.prepare(`SELECT * FROM "${name}"`).all())]))
  } finally {
    db.close()
  }
}

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const runExit = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromiseExit(effect)
const freshPg = () => Effect.runPromise(Scope.extend(freshPostgresUrl, scope))

beforeAll(async () => {
  hooks = { ok: await receiver(), failing: await receiver(true) }
  facts = await fillSource(sourceFile, hooks)
  sourceRows = rowsOf(sourceFile)
  sourceDigest = digestOf(sourceFile)
}, 120_000)

afterAll(async () => {
  await Promise.all([hooks?.ok.close(), hooks?.failing.close()])
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
})

/** The report says every table and every flag agrees, and names every table the source has. */
const expectIdentical = (report: TransferReport) => {
  expect(isIdentical(report)).toBe(true)
  expect(report.flags.compared).toBeGreaterThan(30)
  expect(report.flags.differing).toEqual([])
  const tables = Object.keys(sourceRows).filter((name) => name.startsWith("flagport_") && name !== Migrations.MIGRATIONS_TABLE)
  expect(report.tables.map((t) => t.table).sort()).toEqual(tables.sort())
}

/**
 * A server on the target, checked against what the source answered: keys, evaluations, audit
 * log, stream token, sign-in, an open session, the setup link; then a write (new ids past the copied ones) whose webhook delivery
 * is signed with the webhook's original secret. Returns the audit log and evaluations after that write.
 */
const checkServer = async (
  storage: Parameters<typeof startServer>[0],
  expected: { readonly audit: Record<string, unknown>; readonly evaluations: Record<string, ReadonlyArray<unknown>> },
  options: { readonly useSetupLink: boolean }
) => {
  const t = await startServer(storage, { seeded: facts.keys, webhooks: true })
  try {
    // The same keys authenticate (each kind), and the revoked one still does not.
    expect((await request(t.url, "GET", "/v1/projects", { key: facts.keys.global })).status).toBe(200)
    expect((await request(t.url, "GET", "/v1/config?environment=production", { key: facts.keys.client })).status).toBe(200)
    expect((await request(t.url, "GET", "/v1/projects", { key: facts.keys.revoked })).status).toBe(401)
    expect((await request(t.url, "GET", "/v1/projects", { key: "srv_not-a-key-anyone-made" })).status).toBe(401)
    // Identical evaluations of every context, in both environments.
    expect(await evaluateAll(t.url, facts.keys.scoped)).toEqual(expected.evaluations)
    // The audit log reads the same.
    expect({ p1: await auditOf(t.url, facts.keys.global, "p1"), p2: await auditOf(t.url, facts.keys.global, "p2") }).toEqual(expected.audit)
    // A stream token issued by the source opens the stream (same signing secret).
    const controller = new AbortController()
    const stream = await fetch(`${t.url}/v1/stream?token=${encodeURIComponent(facts.streamToken)}`, { signal: controller.signal })
    expect(stream.status).toBe(200)
    controller.abort()
    // A person signs in with the same password.
    const signIn = await request(t.url, "POST", "/v1/auth/login", { body: { email: facts.people.email, password: facts.people.password } })
    expect(signIn.status, signIn.text).toBe(200)
    // A session started on the source is still open.
    const me = await request(t.url, "GET", "/v1/me", { headers: { cookie: facts.people.cookie } })
    expect(me.status, me.text).toBe(200)
    expect(me.body).toMatchObject({ user: { email: facts.people.email } })
    // The invitation's setup link sets a password (used once, so on the last target only).
    if (options.useSetupLink) {
      const setup = await request(t.url, "POST", "/v1/auth/setup", { body: { token: facts.people.setupToken, password: "a brand new passphrase" } })
      expect(setup.status, setup.text).toBe(200)
    }

    // A new flag: inserts past the copied ids, and the webhook signs its delivery with the same secret.
    const probe = `probe-${Date.now().toString(36)}`
    const created = await request(t.url, "POST", "/v1/projects/p1/flags", {
      key: facts.keys.global,
      body: { key: probe, name: probe, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
    })
    expect(created.status, created.text).toBe(201)
    const delivery = await waitFor("the probe's delivery", () => hooks.ok.deliveries.find((d) => d.body.includes(probe)), 40_000)
    const id = String(delivery.headers["webhook-id"])
    const timestamp = Number(delivery.headers["webhook-timestamp"])
    expect(delivery.headers["webhook-signature"]).toBe(signer(nodeCrypto).sign(WEBHOOK_SECRET, id, timestamp, delivery.body))
    return {
      audit: { p1: await auditOf(t.url, facts.keys.global, "p1"), p2: await auditOf(t.url, facts.keys.global, "p2") },
      evaluations: await evaluateAll(t.url, facts.keys.scoped)
    }
  } finally {
    await t.close()
  }
}

describe("transfer", () => {
  it("the source holds rows in every table of the schema (a table the fixture leaves empty would go untested)", () => {
    const empty = Object.entries(sourceRows).filter(([name, rows]) => name.startsWith("flagport_") && rows.length === 0).map(([name]) => name)
    expect(empty).toEqual([])
  })

  it("the migrations fill no table but the ones the copy replaces", async () => {
    const file = join(dir, "fresh.db")
    await run(Effect.provide(Migrations.run, sqlClientFor({ _tag: "Sqlite", filename: file })))
    const filled = Object.entries(rowsOf(file)).filter(([name, rows]) => name.startsWith("flagport_") && name !== Migrations.MIGRATIONS_TABLE && rows.length > 0)
    expect(filled.map(([name]) => name)).toEqual([...SEEDED_BY_MIGRATIONS])
  })

  it("SQLite to PostgreSQL and back to a new SQLite: each target serves as the source did; the source is unchanged", async () => {
    const pg = await freshPg()
    const toPg = await run(transfer({ from: `sqlite:${sourceFile}`, to: pg, batchRows: 7 }))
    expectIdentical(toPg)
    // payments-live, colour, other, measured and bulk-0 to bulk-28 (bulk-29 deleted)
    expect(toPg.tables.find((t) => t.table === "flagport_flags")).toMatchObject({ source: 33, target: 33 })
    // Straight back to SQLite: every row as it was, value for value (booleans 0/1 again, ids,
    // JSON text, timestamps), and the auto-increment counters where they were.
    const mirror = join(dir, "mirror.db")
    expectIdentical(await run(transfer({ from: pg, to: `sqlite:${mirror}` })))
    const { [Migrations.MIGRATIONS_TABLE]: _sourceMigrations, ...sourceData } = sourceRows
    const { [Migrations.MIGRATIONS_TABLE]: _mirrorMigrations, ...mirrorData } = rowsOf(mirror)
    expect(mirrorData).toEqual(sourceData)

    const afterPg = await checkServer(StorageLayer.fromTarget({ _tag: "Postgres", url: pg }), facts, { useSetupLink: false })

    const back = join(dir, "back.db")
    const toSqlite = await run(transfer({ from: pg, to: `sqlite:${back}` }))
    expectIdentical(toSqlite)
    await checkServer(StorageLayer.sqliteStorage(back), afterPg, { useSetupLink: true })

    expect(rowsOf(sourceFile)).toEqual(sourceRows)
    expect(digestOf(sourceFile)).toBe(sourceDigest)
  }, 180_000)

  it("refuses a target that holds data, and writes nothing to it", async () => {
    const target = join(dir, "occupied.db")
    expect(Exit.isSuccess(await runExit(transfer({ from: `sqlite:${sourceFile}`, to: `sqlite:${target}` })))).toBe(true)
    const before = rowsOf(target)
    const again = await runExit(transfer({ from: `sqlite:${sourceFile}`, to: `sqlite:${target}` }))
    expect(again).toMatchObject({ _tag: "Failure" })
    expect(String(Exit.isFailure(again) ? again.cause : "")).toMatch(/is not empty \(flagport_analysis_metric_totals: \d+ rows?, .*flagport_api_keys: \d+ rows, .*\): transfer writes only into an empty database, and wrote nothing/)
    expect(rowsOf(target)).toEqual(before)
    expect(rowsOf(sourceFile)).toEqual(sourceRows)
  }, 60_000)

  it("a row it cannot convert stops the copy with its table and column, and the target keeps none of what was copied before", async () => {
    const broken = join(dir, "broken.db")
    copyFileSync(sourceFile, broken)
    const db = new Database(broken)
    // flag_configs comes after most tables in the copy's order; 2 is no boolean.
    db.exec("UPDATE flagport_flag_configs SET enabled = 2 WHERE rowid = (SELECT MAX(rowid) FROM flagport_flag_configs)")
    db.close()
    const pg = await freshPg()
    const exit = await runExit(transfer({ from: `sqlite:${broken}`, to: pg }))
    expect(Exit.isFailure(exit) ? String(exit.cause) : "succeeded").toMatch(
      /Cannot copy a row of flagport_flag_configs: flagport_flag_configs.enabled: expected a boolean \(or 0\/1\), found number 2/
    )
    // Nothing was left behind: the same target takes the whole copy of the sound source.
    expectIdentical(await run(transfer({ from: `sqlite:${sourceFile}`, to: pg })))
  }, 60_000)

  it.each([
    ["the same database", () => `sqlite:${sourceFile}`, /--from and --to name the same database/],
    ["memory:", () => "memory:", /is an in-memory database/],
    ["a bad URL", () => "mysql://x/y", /Invalid DATABASE_URL \(unsupported scheme 'mysql'\)/]
  ])("refuses %s as the target", async (_, to, message) => {
    const exit = await runExit(transfer({ from: `sqlite:${sourceFile}`, to: to() }))
    expect(Exit.isFailure(exit) ? String(exit.cause) : "succeeded").toMatch(message)
  })

  it("refuses a source that does not exist, or holds no Flagport database, or is at an older schema", async () => {
    const message = async (from: string) => {
      const exit = await runExit(transfer({ from, to: `sqlite:${join(dir, `unused-${Math.random()}.db`)}` }))
      return Exit.isFailure(exit) ? String(exit.cause) : "succeeded"
    }
    expect(await message(`sqlite:${join(dir, "missing.db")}`)).toMatch(/The source SQLite database '.*missing.db' does not exist/)
    const foreign = join(dir, "foreign.db")
    const notes = new Database(foreign)
    notes.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
    notes.close()
    expect(await message(`sqlite:${foreign}`)).toMatch(/holds no Flagport database \(it has no flagport_migrations table\)/)
    const old = join(dir, "old.db")
    await run(Effect.provide(Migrations.run, sqlClientFor({ _tag: "Sqlite", filename: old })))
    const oldDb = new Database(old)
    oldDb.exec("DELETE FROM flagport_migrations WHERE migration_id = 17")
    oldDb.close()
    expect(await message(`sqlite:${old}`)).toMatch(/is at an older schema \(migration 17 not applied\): run `DATABASE_URL=<source> flagport migrate` first/)
  })
})
