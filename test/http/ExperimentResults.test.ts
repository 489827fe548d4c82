/**
 * GET .../experiments/{key}/results through a real server on SQLite and PostgreSQL: simulated units
 * with a known effect, sent as an SDK sends them (POST /v1/exposures, POST /v1/track), give the
 * results the engine computes from the same units; a unit seen in both variations is left out and
 * counted; a targeting change while running is listed; a skewed exposure stream fails the
 * sample-ratio check.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Experiment } from "../../src/domain/experiments/Experiment.js"
import type { ExperimentResults } from "../../src/domain/experiments/Results.js"
import { resultsOf } from "../../src/domain/experiments/ResultsOf.js"
import { seededRandom } from "../domain/experiments/simulation.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const ROLLOUT = { variations: [{ variationKey: "off", weight: 50_000 }, { variationKey: "on", weight: 50_000 }] }
const METRICS = [
  { key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" },
  { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" }
] as const

interface SimulatedUnit {
  readonly unit: string
  readonly variationKey: "off" | "on"
  /** Whole amounts of the unit's purchases (sums of whole numbers are exact in any order). */
  readonly purchases: ReadonlyArray<number>
}

/** `units` units split by `share` (of `on`), purchasing with a 20% chance under `off` and 30% under `on`. */
const simulate = (seed: number, units: number, share = 0.5): Array<SimulatedUnit> => {
  const random = seededRandom(seed)
  return Array.from({ length: units }, (_, i) => {
    const variationKey = random() < share ? "on" : "off"
    const buys = random() < (variationKey === "on" ? 0.3 : 0.2)
    return { unit: `unit-${seed}-${i}`, variationKey, purchases: buys ? Array.from({ length: 1 + Math.floor(random() * 2) }, () => 10 + Math.floor(random() * 90)) : [] }
  })
}

/** The engine's answer from the simulated units themselves: each metric's sums per variation. */
const expectedFrom = (experiment: Experiment, units: ReadonlyArray<SimulatedUnit>): ExperimentResults => {
  const arm = (variationKey: string, value: (u: SimulatedUnit) => number) => {
    const mine = units.filter((u) => u.variationKey === variationKey).map(value)
    return { variationKey, moments: { n: mine.length, sum: mine.reduce((s, v) => s + v, 0), sumSquares: mine.reduce((s, v) => s + v * v, 0), preSum: 0, preSumSquares: 0, crossSum: 0 } }
  }
  const buys = (u: SimulatedUnit) => (u.purchases.length > 0 ? 1 : 0)
  const revenue = (u: SimulatedUnit) => u.purchases.reduce((s, v) => s + v, 0)
  return resultsOf(experiment, { id: "half", conditions: [], rollout: ROLLOUT }, {
    unitsPerVariation: ["off", "on"].map((v) => ({ variationKey: v, units: units.filter((u) => u.variationKey === v).length })),
    unitsInSeveralVariations: 0,
    arms: new Map([["buys", [arm("off", buys), arm("on", buys)]], ["revenue", [arm("off", revenue), arm("on", revenue)]]]),
    flagEntries: []
  })
}

describe.each(["sqlite", "postgres"] as const)("experiment results (%s)", (backend) => {
  let t: TestServer
  const admin = (method: string, path: string, body?: unknown) => request(t.url, method, path, { key: t.keys.global, ...(body === undefined ? {} : { body }) })
  const client = (path: string, body: unknown) => request(t.url, "POST", path, { key: t.keys.client, body })

  /** A flag split 50/50 by rule `half` in development and a started experiment on it; answers the experiment. */
  const running = async (key: string, analysis: Record<string, unknown>): Promise<Experiment> => {
    expect((await admin("POST", "/v1/projects/p1/flags", { key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })).status).toBe(201)
    const targeting = { environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
    expect((await admin("PUT", `/v1/projects/p1/flags/${key}/targeting`, targeting)).status).toBe(200)
    const made = await admin("POST", "/v1/projects/p1/experiments", { key, flagKey: key, environment: "development", ruleId: "half", controlVariationKey: "off", metrics: METRICS, analysis })
    expect(made.status, made.text).toBe(201)
    const started = await admin("POST", `/v1/projects/p1/experiments/${key}/start`)
    expect(started.status, started.text).toBe(200)
    return started.body as Experiment
  }

  /** Sends the units' exposures and then their purchases, 1,000 items a request, as an SDK would. */
  const send = async (flagKey: string, units: ReadonlyArray<SimulatedUnit>) => {
    const now = Date.now() + 10
    const exposures = units.map((u) => ({ flagKey, variationKey: u.variationKey, ruleId: "half", unit: u.unit, timestamp: new Date(now).toISOString() }))
    const events = units.flatMap((u) => u.purchases.map((value) => ({ event: "purchase", unit: u.unit, value, timestamp: new Date(now + 1000).toISOString() })))
    for (let i = 0; i < exposures.length; i += 1000) {
      const sent = await client("/v1/exposures", { environment: "development", exposures: exposures.slice(i, i + 1000) })
      expect(sent.status, sent.text).toBe(202)
    }
    for (let i = 0; i < events.length; i += 1000) {
      const sent = await client("/v1/track", { environment: "development", events: events.slice(i, i + 1000) })
      expect(sent.status, sent.text).toBe(202)
    }
  }

  beforeAll(async () => {
    t = await startServer(freshStorage(backend))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("gives the figures the engine computes from the same units, with the checks", async () => {
    const experiment = await running("checkout", { method: "frequentist" })
    const units = simulate(42, 1_200)
    await send("checkout", units)
    // One more unit exposed to both variations: left out of every figure, and counted.
    await send("checkout", [{ unit: "both", variationKey: "off", purchases: [50] }, { unit: "both", variationKey: "on", purchases: [] }])
    // A change to the flag's targeting in the experiment's environment while it runs.
    const targeting = { environment: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
    expect((await admin("PUT", "/v1/projects/p1/flags/checkout/targeting", targeting)).status).toBe(200)

    const answer = await admin("GET", "/v1/projects/p1/experiments/checkout/results")
    expect(answer.status, answer.text).toBe(200)
    const results = answer.body as ExperimentResults
    const expected = expectedFrom(experiment, units)
    expect(results.metrics).toEqual(expected.metrics)
    expect(results.checks.sampleRatio).toEqual(expected.checks.sampleRatio)
    expect(results.checks.unitsInSeveralVariations).toBe(1)
    expect(results.checks.targetingChanges.map((c) => c.action)).toEqual(["targeting.updated"])
    expect(results).toMatchObject({ trustworthy: true, method: "frequentist", checks: { notEnoughData: false } })
    // The simulated lift (30% against 20% buy) is found.
    expect(results.metrics[0]!.comparisons[0]).toMatchObject({ variationKey: "on", verdict: "better" })
  }, 60_000)

  it("fails the sample-ratio check on a skewed exposure stream", async () => {
    await running("skewed", {})
    await send("skewed", simulate(7, 600, 0.7))
    const results = (await admin("GET", "/v1/projects/p1/experiments/skewed/results")).body as ExperimentResults
    expect(results.trustworthy).toBe(false)
    expect(results.checks.sampleRatio!.mismatch).toBe(true)
    expect(results.checks.sampleRatio!.pValue).toBeLessThan(0.001)
  }, 60_000)

  it("answers 404 for an experiment the project does not have", async () => {
    const missing = await admin("GET", "/v1/projects/p1/experiments/nope/results")
    expect(missing.status).toBe(404)
  })
})
