/**
 * An experiment worth looking at, for the results page's test and the docs' screenshot: the flag
 * `new-checkout` (Checkout v2 against the classic checkout) whose production rule "Half" splits
 * units 50/50 behind a beta list, and the running experiment `checkout-redesign` on that rule
 * with a conversion metric, a revenue metric and an error guardrail.
 *
 * `resultsBody` makes an answer of `GET .../results` from per-variation sums with the domain's
 * own statistics engine (so every figure is the engine's, none typed by hand), for the page to be
 * driven while the server's results route is not there yet.
 */
import type { ExperimentResults } from "../../src/domain/experiments/Results.js"
import { analyseExperiment } from "../../src/domain/experiments/statistics/ExperimentAnalysis.js"
import { request, type TestServer } from "../http/fixtures.js"

export const FLAG = {
  key: "new-checkout",
  name: "New checkout",
  type: "boolean",
  variations: [{ key: "v2", value: true, name: "Checkout v2" }, { key: "classic", value: false, name: "Classic checkout" }]
}

export const TARGETING = {
  environment: "production",
  enabled: true,
  defaultVariationKey: "classic",
  offVariationKey: "classic",
  rules: [
    { name: "Beta list", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "v2" },
    { name: "Half", conditions: [], rollout: { bucketBy: "userId", variations: [{ variationKey: "v2", weight: 50_000 }, { variationKey: "classic", weight: 50_000 }] } }
  ]
}

export const METRICS = [
  { key: "conversion", event: "purchase", kind: "conversion", goal: "increase", role: "primary", windowHours: 168 },
  { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" },
  { key: "errors", event: "checkout-error", kind: "conversion", goal: "decrease", role: "guardrail" }
] as const

/** The API with the server's global key; throws on a refusal. */
export const apiOf = (server: TestServer) => async (method: string, path: string, body?: unknown): Promise<unknown> => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`)
  return reply.body
}

/** The flag, its targeting and the running experiment, through the API. */
export const setUpExperiment = async (server: TestServer): Promise<void> => {
  const api = apiOf(server)
  await api("POST", "/v1/projects/p1/flags", FLAG)
  await api("PUT", `/v1/projects/p1/flags/${FLAG.key}/targeting`, TARGETING)
  const flag = (await api("GET", `/v1/projects/p1/flags/${FLAG.key}`)) as { configs: Array<{ environmentKey: string; rules: Array<{ id: string; name?: string }> }> }
  const ruleId = flag.configs.find((c) => c.environmentKey === "production")!.rules.find((r) => r.name === "Half")!.id
  await api("POST", "/v1/projects/p1/experiments", {
    key: "checkout-redesign",
    name: "Checkout redesign",
    hypothesis: "The one-page checkout converts more visitors into buyers",
    flagKey: FLAG.key,
    environment: "production",
    ruleId,
    controlVariationKey: "classic",
    metrics: METRICS
  })
  await api("POST", "/v1/projects/p1/experiments/checkout-redesign/start")
}

/** One variation's data: units, and per metric the sum and the sum of squares of the unit values. */
export interface Arm {
  readonly variationKey: "v2" | "classic"
  readonly units: number
  readonly metrics: Readonly<Record<(typeof METRICS)[number]["key"], { readonly sum: number; readonly sumSquares: number }>>
}

/** A conversion metric's sums: `share` of `units` converted (0/1 values, so sum = sum of squares). */
export const converted = (units: number, share: number) => ({ sum: Math.round(units * share), sumSquares: Math.round(units * share) })

export const resultsBody = (arms: ReadonlyArray<Arm>, targetingChanges: ExperimentResults["checks"]["targetingChanges"], unitsInSeveralVariations = 0): ExperimentResults => {
  const variations = arms.map((a) => ({ variationKey: a.variationKey, weight: 50_000, units: a.units }))
  const analysis = analyseExperiment(
    variations,
    "classic",
    METRICS.map((m) => ({
      key: m.key,
      goal: m.goal,
      arms: arms.map((a) => ({ variationKey: a.variationKey, moments: { n: a.units, ...a.metrics[m.key], preSum: 0, preSumSquares: 0, crossSum: 0 } }))
    })),
    { method: "sequential", alpha: 0.05, cuped: true, plannedUnits: 10_000 }
  )
  const total = arms.reduce((s, a) => s + a.units, 0)
  return {
    experimentKey: "checkout-redesign",
    status: "running",
    controlVariationKey: "classic",
    method: "sequential",
    alpha: 0.05,
    trustworthy: !analysis.sampleRatio.mismatch,
    checks: {
      sampleRatio: {
        variations: variations.map((v) => ({ ...v, expectedUnits: total / 2 })),
        chiSquare: analysis.sampleRatio.chiSquare,
        pValue: analysis.sampleRatio.pValue,
        mismatch: analysis.sampleRatio.mismatch
      },
      unitsInSeveralVariations,
      targetingChanges,
      notEnoughData: analysis.notEnoughData,
      minimumUnits: 100
    },
    metrics: METRICS.map((m, i) => ({
      key: m.key,
      event: m.event,
      kind: m.kind,
      goal: m.goal,
      role: m.role,
      variations: analysis.metrics[i]!.variations,
      comparisons: analysis.metrics[i]!.comparisons
    }))
  }
}
