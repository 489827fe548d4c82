/**
 * The PostgreSQL pool's use in GET /metrics, through a real server over the embedded PostgreSQL
 * with a pool of 3: its bound and open connections at rest, consistent figures under concurrent
 * requests, and, with the pool exhausted (a table locked by another session), every connection
 * in use and the queries waiting counted; the scrape still answers then (without the backlog,
 * whose queries would wait too). Closing the server closes the pool. Without PostgreSQL the series
 * carry no sample.
 */
import { readFileSync } from "node:fs"
import { afterAll, afterEach, describe, expect, it, vi } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import pg from "pg"
import * as StorageLayer from "../../adapters/app/Composition.js"
import * as PgStorage from "../../adapters/sql-pg/PgStorage.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { type Family, parsePrometheusText, valueOf } from "../fixtures/PromText.js"
import { request, startServer, type TestServer } from "./fixtures.js"

/** /metrics on the API's port, behind its token (required there). */
const ON = { enabled: true, port: Option.none(), token: Option.some(Redacted.make("scrape-token")) } as const
const SCRAPE = { headers: { authorization: "Bearer scrape-token" } }
const POOL = 3
const POOL_SERIES = ["flagport_db_pool_connections", "flagport_db_pool_connections_idle", "flagport_db_pool_waiting", "flagport_db_pool_max_connections"]

let scope = Effect.runSync(Scope.make())
const closers: Array<() => Promise<void> | void> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

const serveOnPostgres = async (): Promise<{ t: TestServer; url: string }> => {
  const url = await Effect.runPromise(Scope.extend(freshPostgresUrl, scope))
  const t = await startServer(StorageLayer.postgresStorage(PgStorage.layer({ url, maxConnections: POOL })), { metrics: ON })
  closers.push(t.close)
  return { t, url }
}

const scrape = async (base: string): Promise<ReadonlyMap<string, Family>> => {
  const reply = await fetch(`${base}/metrics`, SCRAPE)
  expect(reply.status).toBe(200)
  return parsePrometheusText(await reply.text())
}

interface Use {
  readonly total: number
  readonly idle: number
  readonly waiting: number
  readonly max: number
}

const poolUse = (families: ReadonlyMap<string, Family>): Use => {
  const read = (name: string) => {
    const value = valueOf(families, name)
    expect(value, name).toBeTypeOf("number")
    return value!
  }
  return {
    total: read("flagport_db_pool_connections"),
    idle: read("flagport_db_pool_connections_idle"),
    waiting: read("flagport_db_pool_waiting"),
    max: read("flagport_db_pool_max_connections")
  }
}

/** What holds for any reading of a pool of POOL connections. */
const consistent = (use: Use): void => {
  expect(use.max).toBe(POOL)
  expect(use.total).toBeGreaterThanOrEqual(0)
  expect(use.total).toBeLessThanOrEqual(POOL)
  expect(use.idle).toBeGreaterThanOrEqual(0)
  expect(use.idle).toBeLessThanOrEqual(use.total)
  expect(use.waiting).toBeGreaterThanOrEqual(0)
}

describe("PostgreSQL pool use in /metrics", () => {
  it("at rest: the pool's bound, its open connections, none waiting", async () => {
    const { t } = await serveOnPostgres()
    const use = poolUse(await scrape(t.url))
    consistent(use)
    // The start's queries (migrations, seeding) left at least one connection open and idle.
    expect(use.total).toBeGreaterThanOrEqual(1)
    expect(use.waiting).toBe(0)
  }, 60_000)

  it("shutting the server down closes the pool: no connection of it is left on the database", async () => {
    const { t, url } = await serveOnPostgres()
    const watcher = new pg.Client({ connectionString: url, application_name: "pool-watcher" })
    await watcher.connect()
    closers.push(() => watcher.end())
    const theirs = async () =>
      Number((await watcher.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'flagport'")).rows[0]!.n)
    expect(await theirs()).toBeGreaterThanOrEqual(1)
    await t.close()
    await vi.waitFor(async () => expect(await theirs()).toBe(0), { timeout: 10_000 })
  }, 60_000)

  it("under concurrent requests every reading is consistent, and the waiting drain to 0", async () => {
    const { t } = await serveOnPostgres()
    const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
    const work = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 0
        ? admin("POST", "/v1/projects/p1/flags", { key: `f${i}`, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
        : admin("GET", "/v1/projects/p1/flags")
    )
    const readings = await Promise.all([scrape(t.url), scrape(t.url), scrape(t.url)])
    const replies = await Promise.all(work)
    for (const reply of replies) expect([200, 201]).toContain(reply.status)
    for (const families of readings) consistent(poolUse(families))
    const after = poolUse(await scrape(t.url))
    consistent(after)
    expect(after.waiting).toBe(0)
    expect(after.total).toBeGreaterThanOrEqual(1)
  }, 60_000)

  it("exhausted: every connection in use, the queries beyond them waiting; the scrape still answers", async () => {
    const { t, url } = await serveOnPostgres()
    const locker = new pg.Client({ connectionString: url })
    await locker.connect()
    closers.push(() => locker.end())
    await locker.query("BEGIN")
    await locker.query("LOCK TABLE flagport_flags IN ACCESS EXCLUSIVE MODE")
    const blocked = Array.from({ length: POOL + 3 }, () => request(t.url, "GET", "/v1/projects/p1/flags", { key: t.keys.global }))
    try {
      // The requests' queries wait on the lock, holding every connection; the rest wait for one.
      let families: ReadonlyMap<string, Family> = new Map()
      await vi.waitFor(async () => {
        families = await scrape(t.url)
        const use = poolUse(families)
        consistent(use)
        expect(use.total).toBe(POOL)
        expect(use.idle).toBe(0)
        expect(use.waiting).toBeGreaterThanOrEqual(3)
      }, { timeout: 20_000, interval: 100 })
      // The backlog's queries could not get a connection in time: its series are left out.
      expect(families.get("flagport_webhook_backlog")?.samples ?? []).toEqual([])
    } finally {
      await locker.query("COMMIT")
    }
    for (const reply of await Promise.all(blocked)) expect(reply.status).toBe(200)
    await vi.waitFor(async () => {
      const use = poolUse(await scrape(t.url))
      expect(use.waiting).toBe(0)
      expect(use.idle).toBe(use.total)
    }, { timeout: 10_000 })
  }, 60_000)

  it("docs/operations/operating.md's metrics table names each of the pool's series", () => {
    const table = readFileSync(new URL("../../docs/operations/operating.md", import.meta.url), "utf8")
    for (const name of POOL_SERIES) expect(table, name).toContain(`| \`${name}\` | gauge |`)
  })

  it("without PostgreSQL (memory storage) the pool's series carry no sample", async () => {
    const t = await startServer(StorageLayer.memoryStorage, { metrics: ON })
    closers.push(t.close)
    const families = await scrape(t.url)
    for (const name of POOL_SERIES) {
      expect(families.get(name)?.samples ?? [], name).toEqual([])
    }
  })
})
