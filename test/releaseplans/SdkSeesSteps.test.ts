/**
 * "Streams and SDKs see each step within the usual second": a `flagport serve` process on
 * PostgreSQL (its scheduler applies the steps), the Flagport SDK in this process connected with
 * its stream (polling slowed to a minute, so only the stream can bring a step in time), and a plan
 * with the shortest holds. At every change the SDK announces, the test evaluates 2,000 units
 * locally: the share served the ramped variation names the step the SDK has (weights 20%, 50%,
 * 100% are far apart at that many units; bucketing is stable, so the share only grows). Each step
 * must reach the SDK's local evaluation within 1 s of its audit entry's time (the write's clock,
 * taken before its commit), and no step may be missed.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { type Client, createClient } from "../../adapters/client/index.js"
import { keyLines, type ServerProcess, startServer } from "../cli/Process.js"
import { freshPostgresUrl } from "../fixtures/databases.js"
import { request } from "../http/fixtures.js"

const TIMEOUT = 120_000
const WEIGHTS = [20_000, 50_000, 100_000]
const UNITS = Array.from({ length: 2_000 }, (_, i) => `unit-${i}`)
const WITHIN_MS = 1_000

let scope = Effect.runSync(Scope.make())
let server: ServerProcess | undefined
let sdk: Client | undefined
afterEach(async () => {
  sdk?.close()
  sdk = undefined
  if (server !== undefined && server.child.exitCode === null) server.child.kill("SIGKILL")
  server = undefined
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("release plan steps reach a streaming SDK", () => {
  it("each step is in the SDK's local evaluation within a second of its audit time", { timeout: TIMEOUT }, async () => {
    const databaseUrl = await Effect.runPromise(Scope.extend(freshPostgresUrl, scope))
    server = await startServer(["serve", "--init"], { DATABASE_URL: databaseUrl })
    const { CLIENT_KEY, SERVER_KEY } = keyLines(server.output().stdout)
    const call = async (method: string, path: string, body?: unknown) =>
      request(server!.baseUrl, method, path, { key: SERVER_KEY!, ...(body === undefined ? {} : { body }) })

    expect((await call("POST", "/v1/projects/default/flags", { key: "ramped", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    const set = await call("PUT", "/v1/projects/default/flags/ramped/targeting", {
      environment: "production",
      enabled: true,
      defaultVariationKey: "off",
      offVariationKey: "off",
      rules: [{ id: "ramp", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 0 }, { variationKey: "off", weight: 100_000 }] } }]
    })
    expect(set.status, set.text).toBe(200)
    const plan = await call("POST", "/v1/projects/default/flags/ramped/release-plans", {
      environment: "production",
      ruleId: "ramp",
      variationKey: "on",
      steps: WEIGHTS.map((weight) => ({ weight, holdMinutes: 0.05 }))
    })
    expect(plan.status, plan.text).toBe(201)
    const planId = (plan.body as { id: string }).id

    sdk = await createClient({ url: server.baseUrl, key: CLIENT_KEY!, environment: "production", pollIntervalMs: 60_000, exposures: false, sendInsights: false })
    const share = () => UNITS.filter((unit) => sdk!.boolean("ramped", { key: unit }, false)).length / UNITS.length
    expect(share()).toBe(0)
    const seen: Array<{ at: number; share: number }> = []
    sdk.on("change", (keys: ReadonlyArray<string>) => {
      if (keys.includes("ramped")) seen.push({ at: Date.now(), share: share() })
    })
    await sleep(500) // the stream is connected

    const started = await call("POST", `/v1/projects/default/flags/ramped/release-plans/${planId}/start`)
    expect(started.status, started.text).toBe(200)
    const deadline = Date.now() + 30_000
    const status = async () => ((await call("GET", `/v1/projects/default/flags/ramped/release-plans/${planId}`)).body as { status: string }).status
    while ((await status()) !== "completed") {
      expect(Date.now()).toBeLessThan(deadline)
      await sleep(200)
    }
    await sleep(300)

    const log = await call("GET", "/v1/projects/default/audit?resourceType=flag&resourceKey=ramped")
    const steps = (log.body as { data: Array<{ at: string; actor: { type: string; id?: string } }> }).data
      .filter((entry) => entry.actor.type === "releasePlan" && entry.actor.id === planId)
      .reverse()
    expect(steps).toHaveLength(WEIGHTS.length)

    // The SDK saw the steps' weights in order, and nothing else.
    const stepOf = (observed: number) => WEIGHTS.findIndex((weight) => Math.abs(observed - weight / 100_000) < 0.05)
    expect(seen.map((s) => stepOf(s.share)), JSON.stringify(seen)).toEqual(WEIGHTS.map((_, i) => i))
    const lags = steps.map((entry, i) => seen[i]!.at - Date.parse(entry.at))
    console.info(
      `release plan steps seen by the SDK (shares ${seen.map((s) => s.share.toFixed(3)).join(", ")}) ` +
        `${lags.map((lag) => `${lag} ms`).join(", ")} after their audit times`
    )
    for (const lag of lags) expect(lag).toBeLessThan(WITHIN_MS)
  })
})
