/** The examples of the experiments' operations in the OpenAPI document. */
import type { CreateExperimentInput, Experiment, PatchExperimentInput, StopExperimentInput } from "../../../../src/domain/experiments/Experiment.js"
import type { ExposureBatch, IngestReceipt } from "../../../../src/domain/experiments/Exposure.js"
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
