/** The examples of the experiments' operations in the OpenAPI document. */
import type { CreateExperimentInput, Experiment, PatchExperimentInput, StopExperimentInput } from "../../../../src/domain/experiments/Experiment.js"
import type { ExposureBatch, IngestReceipt } from "../../../../src/domain/experiments/Exposure.js"
import type { ExperimentResults } from "../../../../src/domain/experiments/Results.js"
import { resultsOf } from "../../../../src/domain/experiments/ResultsOf.js"
import type { TrackBatch } from "../../../../src/domain/experiments/MetricEvent.js"

export const createExperiment: CreateExperimentInput = {
  key: "checkout-redesign",
  name: "Checkout redesign",
  hypothesis: "The one-page checkout converts more visitors into buyers",
  flagKey: "new-checkout",
  environment: "production",
  ruleId: "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
  controlVariationKey: "off",
  metrics: [
    { key: "purchases", event: "purchase", kind: "conversion", goal: "increase", role: "primary", windowHours: 168 },
    { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" },
    { key: "errors", event: "checkout-error", kind: "conversion", goal: "decrease", role: "guardrail" }
  ],
  analysis: { method: "sequential", alpha: 0.05 }
}

export const experiment: Experiment = {
  id: "01a2089b-7d55-7e21-8c3f-4a9d2e1b0c66",
  key: "checkout-redesign",
  name: "Checkout redesign",
  hypothesis: "The one-page checkout converts more visitors into buyers",
  flagKey: "new-checkout",
  environment: "production",
  ruleId: "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
  controlVariationKey: "off",
  metrics: createExperiment.metrics,
  analysis: { method: "sequential", alpha: 0.05, cuped: true, preWindowDays: 7, plannedUnits: 10000 },
  status: "running",
  startedAt: "2026-12-01T09:00:00.000Z",
  stoppedAt: null,
  createdAt: "2026-11-30T16:20:00.000Z",
  updatedAt: "2026-12-01T09:00:00.000Z"
}

export const patchExperiment: PatchExperimentInput = { name: "Checkout redesign, one page", analysis: { plannedUnits: 20000 } }

export const stopExperiment: StopExperimentInput = { decision: { variationKey: "on", note: "Purchases up 4%, errors flat: shipping it" } }

export const exposureBatch: ExposureBatch = {
  environment: "production",
  batchId: "sdk-7f3a-000042",
  exposures: [
    { flagKey: "new-checkout", variationKey: "on", ruleId: "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368", unit: "user-1042", timestamp: "2026-12-01T09:15:02.120Z" },
    { flagKey: "new-checkout", variationKey: "off", ruleId: "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368", unit: "user-1043", timestamp: "2026-12-01T09:15:02.480Z" }
  ]
}

export const trackBatch: TrackBatch = {
  environment: "production",
  batchId: "sdk-7f3a-000043",
  events: [
    { event: "purchase", unit: "user-1042", value: 49.9, timestamp: "2026-12-01T09:17:40.000Z" },
    { event: "signup", unit: "user-1043" }
  ]
}

export const ingestReceipt: IngestReceipt = { accepted: 2, dropped: 0, duplicate: false }

/** Sums of a made-up week of the example experiment: a conversion's sums are its count twice. */
const conversions = (n: number, converted: number, convertedBefore: number, both: number) =>
  ({ n, sum: converted, sumSquares: converted, preSum: convertedBefore, preSumSquares: convertedBefore, crossSum: both })

/**
 * The results the engine computes from those sums (not typed in by hand, so the example's figures
 * are always ones the API could answer), with one targeting change while it ran.
 */
export const results: ExperimentResults = resultsOf(
  experiment,
  { id: experiment.ruleId, conditions: [], rollout: { variations: [{ variationKey: "off", weight: 50_000 }, { variationKey: "on", weight: 50_000 }] } },
  {
    unitsPerVariation: [{ variationKey: "off", units: 10_112 }, { variationKey: "on", units: 10_064 }],
    unitsInSeveralVariations: 12,
    arms: new Map([
      ["purchases", [{ variationKey: "off", moments: conversions(10_112, 1_011, 640, 212) }, { variationKey: "on", moments: conversions(10_064, 1_147, 652, 240) }]],
      ["revenue", [
        { variationKey: "off", moments: { n: 10_112, sum: 58_310, sumSquares: 9_480_000, preSum: 36_900, preSumSquares: 5_950_000, crossSum: 2_100_000 } },
        { variationKey: "on", moments: { n: 10_064, sum: 64_870, sumSquares: 10_650_000, preSum: 37_300, preSumSquares: 6_010_000, crossSum: 2_260_000 } }
      ]],
      ["errors", [{ variationKey: "off", moments: conversions(10_112, 303, 290, 40) }, { variationKey: "on", moments: conversions(10_064, 296, 301, 41) }]]
    ]),
    flagEntries: [{
      id: "01a2089b-9e10-7c4d-a2b1-5f6e7d8c9b0a",
      projectId: "shop",
      at: "2026-12-03T14:02:11.000Z",
      actor: { type: "user", userId: "01a2089b-1111-7000-8000-000000000001", email: "ada@example.com" },
      action: "targeting.updated",
      resource: { type: "flag", key: "new-checkout" },
      environment: "production",
      before: null,
      after: null
    }]
  }
)
