/**
 * What one `POST /v1/insights` may claim, through the real server on SQLite and PostgreSQL: a
 * window outside the last 48 hours (back to year 0000) or ahead of the clock, counts over the
 * per-flag rate, the per-report total or the per-key hourly budget are refused with 400, and
 * nothing of them is stored. A row near 2^63 (PostgreSQL's BIGINT) saturates instead of failing
 * every later flush, and a project whose rows the database refuses holds back no other project's.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, ManagedRuntime } from "effect"
import type * as StorageLayer from "../../adapters/app/Composition.js"
import { InsightsRepository } from "../../src/ports/InsightsRepository.js"
import { freshSqlStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

const HOUR = 3_600_000
const hourOf = (ms: number) => new Date(Math.floor(ms / HOUR) * HOUR).toISOString()
const FLAGS = Array.from({ length: 10 }, (_, i) => `f${i}`)

describe.each(["sqlite", "postgres"] as const)("insights report bounds (%s)", (backend) => {
  let runtime: ManagedRuntime.ManagedRuntime<StorageLayer.Storage | SqlClient.SqlClient, unknown>
  let t: TestServer
  let clientKey = ""
  let otherKey = ""
  let refusedProjectKey = ""
  let budgetKey = ""
  const run = <A, E>(effect: Effect.Effect<A, E, StorageLayer.Storage | SqlClient.SqlClient>) => runtime.runPromise(effect)
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const report = (body: Record<string, unknown>, key = clientKey) => request(t.url, "POST", "/v1/insights", { key, body: { environment: "development", ...body } })
  const stored = (projectId: string, flagKey: string) =>
    run(Effect.flatMap(InsightsRepository, (repo) => repo.series(projectId, "development", flagKey, "0000", "9999")))

  beforeAll(async () => {
    runtime = ManagedRuntime.make(freshSqlStorage(backend))
    const context = await run(Effect.context<StorageLayer.Storage | SqlClient.SqlClient>())
    t = await startServer(Layer.succeedContext(context))
    for (const project of ["p1", "p2"]) {
      for (const key of FLAGS) {
        const made = await admin("POST", `/v1/projects/${project}/flags`, { key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
        expect(made.status, made.text).toBe(201)
      }
    }
    clientKey = ((await admin("POST", "/v1/projects/p1/keys", { type: "client", name: "sdk" })).body as { key: string }).key
    otherKey = ((await admin("POST", "/v1/projects/p2/keys", { type: "client", name: "sdk" })).body as { key: string }).key
    budgetKey = ((await admin("POST", "/v1/projects/p1/keys", { type: "client", name: "budget" })).body as { key: string }).key
    expect((await admin("POST", "/v1/projects", { id: "p3", name: "Refused" })).status).toBe(201)
    expect((await admin("POST", "/v1/projects/p3/environments", { key: "development", name: "Development" })).status).toBe(201)
    expect((await admin("POST", "/v1/projects/p3/flags", { key: "f0", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    refusedProjectKey = ((await admin("POST", "/v1/projects/p3/keys", { type: "client", name: "sdk" })).body as { key: string }).key
    // p1's f1 has a row near 2^63 this hour (the largest BIGINT is 9223372036854775807), and the
    // database refuses every row of p3, as a corrupt or locked row would be refused.
    await run(Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO flagport_insights (project_id, environment_key, flag_key, hour, variation_key, count)
          VALUES ('p1', 'development', 'f1', ${hourOf(Date.now())}, 'on', ${sql.literal("9223372036854775000")})`
        if (backend === "postgres") {
          yield* sql.unsafe(`CREATE FUNCTION refuse_row() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`)
          yield* sql.unsafe(`CREATE TRIGGER refuse_p3 BEFORE INSERT ON flagport_insights FOR EACH ROW WHEN (NEW.project_id = 'p3') EXECUTE FUNCTION refuse_row()`)
        } else {
          yield* sql.unsafe(`CREATE TRIGGER refuse_p3 BEFORE INSERT ON flagport_insights WHEN NEW.project_id = 'p3' BEGIN SELECT RAISE(ABORT, 'refused'); END`)
        }
      })))
  }, 60_000)
  afterAll(async () => {
    await t?.server.close()
    await runtime?.dispose()
  })

  it("refuses windows outside the last 48 hours or ahead of the clock, and claims over the caps, storing nothing", async () => {
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    const one = [{ flagKey: "f0", variationKey: "on", count: 5 }]
    const refused: Array<[Record<string, unknown>, string, string]> = [
      [{ from: "0000-01-01T00:00:00Z", to: iso(now), counts: one }, "from", "must be within the last 48 hours"],
      [{ from: iso(now - 49 * HOUR), to: iso(now - 48.5 * HOUR), counts: one }, "from", "must be within the last 48 hours"],
      [{ from: iso(now), to: "9999-12-31T23:59:59Z", counts: one }, "to", "must not be more than 300 seconds ahead of the server's clock"],
      // 60 s at most a million a second: 60,000,000 evaluations of one flag.
      [{ from: iso(now - 60_000), to: iso(now), counts: [{ flagKey: "f0", variationKey: "on", count: 40_000_000 }, { flagKey: "f0", variationKey: "off", count: 40_000_000 }] }, "counts", "claims 80,000,000 evaluations of 'f0' in 60 s; at most 1,000,000 per second of the window from..to (60,000,000)"],
      [{ from: iso(now), to: iso(now), counts: [{ flagKey: "f0", variationKey: "on", count: 1_000_001 }] }, "counts", "claims 1,000,001 evaluations of 'f0' in 1 s; at most 1,000,000 per second of the window from..to (1,000,000)"],
      [{ from: iso(now - 40 * HOUR), to: iso(now), counts: Array.from({ length: 11 }, (_, i) => ({ flagKey: `f${i % 10}`, variationKey: i < 10 ? "on" : "off", count: 1_000_000_000 })) }, "counts", "must have at most 10,000,000,000 evaluations in all (this report has 11,000,000,000)"]
    ]
    for (const [body, path, message] of refused) {
      const reply = await report(body)
      expect(reply.status, reply.text).toBe(400)
      expect((reply.body as { error: { code: string; details: unknown } }).error).toMatchObject({ code: "invalid_request", details: [{ path, message }] })
    }
    // A plausible report is taken.
    expect((await report({ from: iso(now - 60_000), to: iso(now), counts: one })).status).toBe(202)
  })

  it("refuses a key's reports past its hourly budget (another key keeps its own)", async () => {
    // Each report claims 10^10 (10 flags x 10^9 over 10,000 s); ten fill one key's hour.
    const to = Date.now()
    const body = { from: new Date(to - 10_000_000).toISOString(), to: new Date(to).toISOString(), counts: FLAGS.map((flagKey) => ({ flagKey, variationKey: "off", count: 1_000_000_000 })) }
    for (let i = 0; i < 10; i++) expect((await report(body, budgetKey)).status).toBe(202)
    const over = await report(body, budgetKey)
    expect(over.status, over.text).toBe(400)
    expect(over.text).toContain("this key may report at most 100,000,000,000 evaluations for the hour of to")
    expect((await report(body, otherKey)).status).toBe(202)
  })

  it("a row near 2^63 saturates and a project whose rows fail holds back no other project's counts", async () => {
    const now = Date.now()
    const window = { from: new Date(now - 60_000).toISOString(), to: new Date(now).toISOString() }
    expect((await report({ ...window, counts: [{ flagKey: "f1", variationKey: "on", count: 7 }] })).status).toBe(202)
    expect((await report({ ...window, counts: [{ flagKey: "f1", variationKey: "on", count: 11 }] }, otherKey)).status).toBe(202)
    expect((await report({ ...window, counts: [{ flagKey: "f0", variationKey: "on", count: 13 }] }, refusedProjectKey)).status).toBe(202)
    // The shutdown's flush writes what the server holds.
    await t.server.close()
    const counts = async (projectId: string, flagKey: string) => Object.fromEntries((await stored(projectId, flagKey)).map((r) => [r.variationKey, r.count]))
    // Nothing of the refused reports: only the plausible 5, and 10 x 10^9 from the budget test.
    expect(await counts("p1", "f0")).toEqual({ on: 5, off: 10_000_000_000 })
    expect(await counts("p1", "f1")).toEqual({ on: Number.MAX_SAFE_INTEGER, off: 10_000_000_000 })
    expect(await counts("p2", "f1")).toEqual({ on: 11, off: 1_000_000_000 })
    expect(await counts("p3", "f0")).toEqual({})
    const raw = await run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ count: string | number }>`SELECT count FROM flagport_insights WHERE project_id = 'p1' AND flag_key = 'f1' AND variation_key = 'on'`))
    expect(String(raw[0]!.count)).toBe("9223372036854775000")
  })
})
