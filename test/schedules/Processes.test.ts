/**
 * Exactly once across processes: two `flagport serve` processes (each with its scheduler) on one
 * PostgreSQL, schedules falling due at the same moment. Each is applied by one of them only: every
 * flag's version grows by exactly one and its audit log holds exactly one change made by a schedule.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { keyLines, type ServerProcess, startServer } from "../cli/Process.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { request } from "../http/fixtures.js"

const TIMEOUT = 180_000
const SCHEDULES = 12

let scope = Effect.runSync(Scope.make())
let running: Array<ServerProcess> = []
afterEach(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL")
  running = []
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

describe("schedules with two server processes on one PostgreSQL", () => {
  it("applies each schedule exactly once", { timeout: TIMEOUT }, async () => {
    const databaseUrl = await Effect.runPromise(Scope.extend(freshPostgresUrl, scope))
    const first = await startServer(["serve", "--init"], { DATABASE_URL: databaseUrl })
    running.push(first)
    const second = await startServer(["serve"], { DATABASE_URL: databaseUrl })
    running.push(second)
    const { SERVER_KEY } = keyLines(first.output().stdout)
    const call = (base: string, method: string, path: string, body?: unknown) =>
      request(base, method, path, { key: SERVER_KEY!, ...(body === undefined ? {} : { body }) })

    const at = new Date(Date.now() + 3_000).toISOString()
    const keys = Array.from({ length: SCHEDULES }, (_, i) => `twice-${i}`)
    for (const [i, key] of keys.entries()) {
      // Made through either process: both hold every schedule in the one database.
      const base = i % 2 === 0 ? first.baseUrl : second.baseUrl
      const flag = await call(base, "POST", "/v1/projects/default/flags", {
        key,
        type: "boolean",
        variations: [{ key: "on", value: true }, { key: "off", value: false }]
      })
      expect(flag.status, flag.text).toBe(201)
      const schedule = await call(base, "POST", `/v1/projects/default/flags/${key}/schedules`, {
        environment: "production",
        at,
        targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
      })
      expect(schedule.status, schedule.text).toBe(201)
    }

    const statuses = async () =>
      Promise.all(keys.map(async (key) => ((await call(first.baseUrl, "GET", `/v1/projects/default/flags/${key}/schedules`)).body as { data: Array<{ status: string }> }).data[0]!.status))
    const deadline = Date.parse(at) + 15_000
    while ((await statuses()).some((status) => status === "pending")) {
      expect(Date.now()).toBeLessThan(deadline)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(await statuses()).toEqual(keys.map(() => "applied"))
    // Give a second (wrong) application time to land before looking.
    await new Promise((resolve) => setTimeout(resolve, 2_500))

    for (const key of keys) {
      const flag = (await call(second.baseUrl, "GET", `/v1/projects/default/flags/${key}`)).body as { version: number }
      expect(flag.version, key).toBe(2)
      const audit = (await call(second.baseUrl, "GET", `/v1/projects/default/audit?resourceType=flag&resourceKey=${key}`)).body as {
        data: Array<{ action: string; actor: { type: string } }>
      }
      expect(audit.data.filter((entry) => entry.actor.type === "schedule").map((entry) => entry.action), key).toEqual(["targeting.updated"])
    }
  })
})
