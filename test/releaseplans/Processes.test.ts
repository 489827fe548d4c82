/**
 * Exactly-once steps across processes (issue: "three processes on one PostgreSQL, one killed
 * mid-step"): three `flagport serve` processes, each with its scheduler, ramp release plans on one
 * PostgreSQL. The test makes "mid-step" real without a hook in the server: it holds a SHARE lock on
 * the outbox table, so the first step transaction to reach its webhook event (after its revision
 * bump and its targeting write, uncommitted) waits there. The test finds that backend in
 * pg_stat_activity (waiting, with a transaction id: it has written), finds the process it serves
 * (its client port, Backends.ts), SIGKILLs that process, then lets the lock go. The dead process's
 * transaction can never commit; the plans it had claimed are taken over by the other two once its
 * lease (FLAGPORT_SCHEDULER_LEASE_SECONDS, short here) lapses.
 *
 * Then, per plan: it completed; its flag's audit log holds one targeting entry per step with the
 * plan as actor, in order, each with the step's weight on the rule (none skipped, none repeated);
 * the flag's version grew by exactly the number of steps; the plan's own log is created, started,
 * one `advanced` per step, completed.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import pg from "pg"
import { keyLines, type ServerProcess, startServer } from "../cli/Process.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { request } from "../http/fixtures.js"
import { processOfClientPort } from "./Backends.js"

const TIMEOUT = 180_000
const PLANS = 9
const WEIGHTS = [10_000, 40_000, 100_000]
/** The shortest hold the contract allows: three seconds. */
const HOLD_MINUTES = 0.05
const LEASE_SECONDS = 3

let scope = Effect.runSync(Scope.make())
let running: Array<ServerProcess> = []
let clients: Array<pg.Client> = []
afterEach(async () => {
  for (const client of clients) await client.end().catch(() => undefined)
  clients = []
  for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL")
  running = []
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

interface Entry {
  readonly action: string
  readonly at: string
  readonly actor: { readonly type: string; readonly id?: string }
  readonly after: { readonly configs?: Array<{ environmentKey: string; rules: Array<{ id: string; rollout?: { variations: Array<{ variationKey: string; weight: number }> } }> }> } | null
}

interface Plan {
  readonly id: string
  readonly status: string
  readonly currentStep: number | null
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("release plans with three server processes on one PostgreSQL", () => {
  it("applies every step exactly once, in order, when a process is killed in the middle of a step", { timeout: TIMEOUT }, async () => {
    const began = Date.now()
    const databaseUrl = await Effect.runPromise(Scope.extend(freshPostgresUrl, scope))
    const env = { DATABASE_URL: databaseUrl, FLAGPORT_SCHEDULER_LEASE_SECONDS: String(LEASE_SECONDS) }
    const first = await startServer(["serve", "--init"], env)
    running.push(first)
    const others = await Promise.all([startServer(["serve"], env), startServer(["serve"], env)])
    running.push(...others)
    const servers = [first, ...others]
    const upAt = Date.now()
    const { SERVER_KEY } = keyLines(first.output().stdout)
    const call = async (server: ServerProcess, method: string, path: string, body?: unknown) =>
      request(server.baseUrl, method, path, { key: SERVER_KEY!, ...(body === undefined ? {} : { body }) })

    // The plans, made through all three processes: one per flag, on the flag's rule "ramp".
    const keys = Array.from({ length: PLANS }, (_, i) => `ramped-${i}`)
    const plans = new Map<string, string>()
    const versions = new Map<string, number>()
    for (const [i, key] of keys.entries()) {
      const server = servers[i % servers.length]!
      const flag = await call(server, "POST", "/v1/projects/default/flags", { key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      expect(flag.status, flag.text).toBe(201)
      const targeting = await call(server, "PUT", `/v1/projects/default/flags/${key}/targeting`, {
        environment: "production",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules: [{ id: "ramp", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 0 }, { variationKey: "off", weight: 100_000 }] } }]
      })
      expect(targeting.status, targeting.text).toBe(200)
      versions.set(key, (targeting.body as { configs: Array<{ environmentKey: string; version: number }> }).configs.find((c) => c.environmentKey === "production")!.version)
      const plan = await call(server, "POST", `/v1/projects/default/flags/${key}/release-plans`, {
        environment: "production",
        ruleId: "ramp",
        variationKey: "on",
        steps: WEIGHTS.map((weight) => ({ weight, holdMinutes: HOLD_MINUTES }))
      })
      expect(plan.status, plan.text).toBe(201)
      plans.set(key, (plan.body as Plan).id)
    }

    const watcher = new pg.Client({ connectionString: databaseUrl, application_name: "rp-test-watcher" })
    const locker = new pg.Client({ connectionString: databaseUrl, application_name: "rp-test-locker" })
    clients.push(watcher, locker)
    await Promise.all([watcher.connect(), locker.connect()])

    for (const [i, key] of keys.entries()) {
      const started = await call(servers[i % servers.length]!, "POST", `/v1/projects/default/flags/${key}/release-plans/${plans.get(key)}/start`)
      expect(started.status, started.text).toBe(200)
    }
    // From here every step transaction that reaches its webhook event waits (a SHARE lock conflicts
    // with the ROW EXCLUSIVE an INSERT takes), its targeting write done and not committed.
    await locker.query("BEGIN")
    await locker.query("LOCK TABLE flagport_outbox IN SHARE MODE")

    type Waiting = { pid: number; client_port: number; backend_xid: string | null; query: string }
    let waiting: Waiting | undefined
    const lockDeadline = Date.now() + 20_000
    while (waiting === undefined) {
      expect(Date.now(), "no step reached the outbox while it was locked").toBeLessThan(lockDeadline)
      const rows = await watcher.query<Waiting>(
        `SELECT pid, client_port, backend_xid::text AS backend_xid, query FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'flagport' AND wait_event_type = 'Lock'
           AND query ILIKE 'INSERT INTO flagport_outbox%'`
      )
      waiting = rows.rows[0]
      if (waiting === undefined) await sleep(50)
    }
    // It has written (a transaction id is assigned at the first write): the revision bump and the step's targeting.
    expect(waiting.backend_xid).not.toBeNull()
    const victimPid = processOfClientPort(waiting.client_port, servers.map((s) => s.child.pid!))
    expect(victimPid, `no server process holds the connection of client port ${waiting.client_port}`).toBeDefined()
    const victim = servers.find((s) => s.child.pid === victimPid)!
    const leased = (await watcher.query<{ n: string }>("SELECT count(*) AS n FROM flagport_release_plans WHERE lease_owner IS NOT NULL")).rows[0]!.n
    victim.child.kill("SIGKILL")
    expect(await victim.exited).toBe("SIGKILL")
    await locker.query("ROLLBACK")
    const killedAt = Date.now()
    const survivors = servers.filter((s) => s !== victim)

    // Every plan completes through the two survivors.
    const statuses = async () =>
      Promise.all(keys.map(async (key, i) => {
        const reply = await call(survivors[i % survivors.length]!, "GET", `/v1/projects/default/flags/${key}/release-plans/${plans.get(key)}`)
        expect(reply.status, reply.text).toBe(200)
        return (reply.body as Plan).status
      }))
    const deadline = killedAt + 30_000
    while ((await statuses()).some((status) => status !== "completed")) {
      expect(Date.now(), JSON.stringify(await statuses())).toBeLessThan(deadline)
      await sleep(250)
    }
    const completedAt = Date.now()

    for (const key of keys) {
      const planId = plans.get(key)!
      const flagLog = await call(survivors[0]!, "GET", `/v1/projects/default/audit?resourceType=flag&resourceKey=${key}&limit=200`)
      expect(flagLog.status, flagLog.text).toBe(200)
      const steps = (flagLog.body as { data: Array<Entry> }).data.filter((entry) => entry.actor.type === "releasePlan").reverse()
      expect(steps.map((entry) => [entry.action, entry.actor.id]), key).toEqual(WEIGHTS.map(() => ["targeting.updated", planId]))
      const weights = steps.map((entry) =>
        entry.after?.configs?.find((c) => c.environmentKey === "production")?.rules.find((r) => r.id === "ramp")?.rollout?.variations)
      expect(weights, key).toEqual(WEIGHTS.map((weight) => [{ variationKey: "on", weight }, { variationKey: "off", weight: 100_000 - weight }]))

      const targeting = await call(survivors[1]!, "GET", `/v1/projects/default/flags/${key}/targeting?environment=production`)
      expect(targeting.status, targeting.text).toBe(200)
      expect((targeting.body as { version: number }).version, key).toBe(versions.get(key)! + WEIGHTS.length)

      const planLog = await call(survivors[1]!, "GET", `/v1/projects/default/audit?resourceType=release_plan&resourceKey=${planId}&limit=200`)
      expect(planLog.status, planLog.text).toBe(200)
      expect((planLog.body as { data: Array<Entry> }).data.map((entry) => entry.action).reverse(), key).toEqual([
        "release_plan.created",
        "release_plan.started",
        ...WEIGHTS.map(() => "release_plan.advanced"),
        "release_plan.completed"
      ])
    }
    console.info(
      `release plan processes: ${PLANS} plans, ${LEASE_SECONDS} s lease; killed pid ${victimPid} waiting in a step transaction ` +
        `(${leased} plan(s) leased by any process then); all completed ${((completedAt - killedAt) / 1000).toFixed(1)} s after the kill; ` +
        `servers up in ${((upAt - began) / 1000).toFixed(1)} s, test ${((Date.now() - began) / 1000).toFixed(1)} s`
    )
  })
})
