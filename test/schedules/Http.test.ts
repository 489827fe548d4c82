import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

/**
 * Scheduled changes through a real server (the standalone composition, scheduler included) on
 * SQLite and PostgreSQL: create, list, cancel, the 400/404/409 answers, the change applied within
 * 2 s of its time, a schedule that became invalid failing without changing anything, and a
 * schedule that fell due while no server ran applied at the next start.
 */

const databases = {
  sqlite: Effect.map(freshSqliteFile, (file) => `sqlite:${file}`),
  postgres: freshPostgresUrl
}

const turnOn = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const [backend, database] of Object.entries(databases)) {
  describe(`schedules over HTTP on ${backend}`, () => {
    const scope = Effect.runSync(Scope.make())
    let url = ""
    let t: TestServer
    const call = (method: string, path: string, body?: unknown) =>
      request(t.url, method, path, { key: t.keys.scoped, ...(body === undefined ? {} : { body }) })
    const schedulesOf = async (flag: string) => (await call("GET", `/v1/projects/p1/flags/${flag}/schedules`)).body as { data: Array<Record<string, any>> }
    const waitForStatus = async (flag: string, id: string, until: number) => {
      for (;;) {
        const found = (await schedulesOf(flag)).data.find((s) => s.id === id)!
        if (found.status !== "pending" || Date.now() > until) return found
        await sleep(50)
      }
    }
    const createFlag = async (key: string, variations = [{ key: "on", value: true }, { key: "off", value: false }]) =>
      expect((await call("POST", "/v1/projects/p1/flags", { key, type: "boolean", variations })).status).toBe(201)

    beforeAll(async () => {
      url = await Effect.runPromise(Scope.extend(database, scope))
      t = await startServer(StorageLayer.fromDatabaseUrl(url), { schedules: true })
    }, 120_000)
    afterAll(async () => {
      await t?.close()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    })

    it("a schedule's prerequisites are applied with it, as the PUT applies them", async () => {
      await createFlag("gate")
      await createFlag("gated")
      const targeting = { ...turnOn, prerequisites: [{ flagKey: "gate", variationKey: "on" }] }
      const created = await call("POST", "/v1/projects/p1/flags/gated/schedules", { environment: "production", at: new Date(Date.now() + 200).toISOString(), targeting })
      expect(created.status, created.text).toBe(201)
      expect((created.body as Record<string, any>).targeting).toEqual(targeting)
      expect((await waitForStatus("gated", (created.body as Record<string, any>).id, Date.now() + 5000)).status).toBe("applied")
      const flag = (await call("GET", "/v1/projects/p1/flags/gated")).body as Record<string, any>
      expect(flag.configs.find((c: any) => c.environmentKey === "production").prerequisites).toEqual(targeting.prerequisites)
    })

    it("creates, lists and applies a schedule within 2 s of its time, as a PUT would", async () => {
      await createFlag("launch")
      const at = new Date(Date.now() + 1500).toISOString()
      const created = await call("POST", "/v1/projects/p1/flags/launch/schedules", { environment: "production", at, targeting: turnOn })
      expect(created.status).toBe(201)
      const schedule = created.body as Record<string, any>
      expect(schedule).toEqual({
        id: expect.any(String),
        flagKey: "launch",
        environment: "production",
        at,
        targeting: turnOn,
        status: "pending",
        createdAt: expect.stringMatching(/Z$/),
        actor: { type: "key", keyId: expect.any(String), keyName: expect.any(String) }
      })
      expect((await schedulesOf("launch")).data).toEqual([schedule])

      const settled = await waitForStatus("launch", schedule.id, Date.parse(at) + 5000)
      expect(settled.status).toBe("applied")
      const flag = (await call("GET", "/v1/projects/p1/flags/launch")).body as Record<string, any>
      expect(flag.version).toBe(2)
      expect(flag.configs.find((c: any) => c.environmentKey === "production")).toEqual({ environmentKey: "production", ...turnOn, prerequisites: [], version: 2, lastEvaluatedAt: null })
      expect(Date.parse(flag.updatedAt)).toBeGreaterThanOrEqual(Date.parse(at))
      expect(Date.parse(flag.updatedAt)).toBeLessThanOrEqual(Date.parse(at) + 2000)
    }, 30_000)

    it("answers 400 as the targeting PUT does, 404 for an unknown flag or environment, and stores nothing", async () => {
      await createFlag("checked")
      const at = new Date(Date.now() + 3_600_000).toISOString()
      const bad = await call("POST", "/v1/projects/p1/flags/checked/schedules", {
        environment: "production",
        at,
        targeting: { ...turnOn, defaultVariationKey: "maybe", rules: [{ conditions: [], variationKey: "nope" }] }
      })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual({
        error: {
          code: "invalid_request",
          message: "Invalid targeting",
          details: [
            { path: "targeting.defaultVariationKey", message: 'unknown variation "maybe"' },
            { path: "targeting.rules[0].variationKey", message: 'unknown variation "nope"' }
          ]
        }
      })
      const put = await call("PUT", "/v1/projects/p1/flags/checked/targeting", {
        environment: "production",
        ...turnOn,
        defaultVariationKey: "maybe",
        rules: [{ conditions: [], variationKey: "nope" }]
      })
      expect((put.body as any).error.details.map((d: any) => `targeting.${d.path}`)).toEqual((bad.body as any).error.details.map((d: any) => d.path))

      for (const body of [
        { environment: "production", targeting: turnOn },
        { environment: "production", at: "tomorrow at nine", targeting: turnOn },
        { environment: "production", at: "2027-01-01T09:00:00", targeting: turnOn },
        { environment: "production", at, targeting: { ...turnOn, surprise: 1 } },
        { environment: "production", at, targeting: { ...turnOn, environment: "development" } }
      ]) {
        const answer = await call("POST", "/v1/projects/p1/flags/checked/schedules", body)
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect((answer.body as any).error.code).toBe("invalid_request")
      }
      expect((await call("POST", "/v1/projects/p1/flags/checked/schedules", { environment: "staging", at, targeting: turnOn })).status).toBe(404)
      expect((await call("POST", "/v1/projects/p1/flags/missing/schedules", { environment: "production", at, targeting: turnOn })).status).toBe(404)
      expect((await call("GET", "/v1/projects/p1/flags/missing/schedules")).status).toBe(404)
      expect((await schedulesOf("checked")).data).toEqual([])
    })

    it("cancels a pending schedule (204), then 409; an unknown schedule is 404; a cancelled one never runs", async () => {
      await createFlag("cancelled")
      const at = new Date(Date.now() + 1000).toISOString()
      const { id } = (await call("POST", "/v1/projects/p1/flags/cancelled/schedules", { environment: "production", at, targeting: turnOn })).body as any
      expect((await call("DELETE", `/v1/projects/p1/flags/cancelled/schedules/${id}`)).status).toBe(204)
      const again = await call("DELETE", `/v1/projects/p1/flags/cancelled/schedules/${id}`)
      expect(again.status).toBe(409)
      expect(again.body).toEqual({ error: { code: "conflict", message: `Schedule '${id}' is cancelled; only a pending schedule can be cancelled` } })
      expect((await call("DELETE", "/v1/projects/p1/flags/cancelled/schedules/unknown")).status).toBe(404)
      await sleep(2500)
      expect((await schedulesOf("cancelled")).data.map((s) => s.status)).toEqual(["cancelled"])
      expect(((await call("GET", "/v1/projects/p1/flags/cancelled")).body as any).version).toBe(1)
    }, 30_000)

    it("a schedule that became invalid fails with the reason and changes nothing", async () => {
      await createFlag("shrinking", [{ key: "on", value: true }, { key: "maybe", value: true }, { key: "off", value: false }])
      const at = new Date(Date.now() + 1000).toISOString()
      const { id } = (await call("POST", "/v1/projects/p1/flags/shrinking/schedules", {
        environment: "production",
        at,
        targeting: { ...turnOn, defaultVariationKey: "maybe" }
      })).body as any
      const patched = await call("PATCH", "/v1/projects/p1/flags/shrinking", { variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      expect(patched.status).toBe(200)
      const settled = await waitForStatus("shrinking", id, Date.parse(at) + 5000)
      expect(settled).toMatchObject({ status: "failed", reason: 'Invalid targeting: defaultVariationKey: unknown variation "maybe"' })
      expect((await call("GET", "/v1/projects/p1/flags/shrinking")).body).toEqual(patched.body)
      expect((await call("DELETE", `/v1/projects/p1/flags/shrinking/schedules/${id}`)).status).toBe(409)
    }, 30_000)

    it("a schedule that fell due while no server ran is applied at the next start", async () => {
      await createFlag("downtime")
      const at = new Date(Date.now() + 1000).toISOString()
      const { id } = (await call("POST", "/v1/projects/p1/flags/downtime/schedules", { environment: "production", at, targeting: turnOn })).body as any
      const keys = t.keys
      await t.close()
      await sleep(Date.parse(at) - Date.now() + 500)
      const restartedAt = Date.now()
      t = await startServer(StorageLayer.fromDatabaseUrl(url), { schedules: true, seeded: keys })
      const settled = await waitForStatus("downtime", id, restartedAt + 10_000)
      expect(settled.status).toBe("applied")
      const flag = (await call("GET", "/v1/projects/p1/flags/downtime")).body as Record<string, any>
      expect(flag.configs.find((c: any) => c.environmentKey === "production").enabled).toBe(true)
      expect(Date.parse(flag.updatedAt) - restartedAt).toBeLessThan(5000)
    }, 60_000)
  })
}
