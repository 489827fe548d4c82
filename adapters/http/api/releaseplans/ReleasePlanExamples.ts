/** The examples of the release plans' operations in the OpenAPI document: the checkout ramped up over a day. */
import { ANALYSIS_DEFAULTS } from "../../../../src/domain/experiments/Experiment.js"
import { checkGuardrails, type GuardrailCheck } from "../../../../src/domain/experiments/Guardrail.js"
import type { CreateReleasePlanInput, ReleasePlan, ResumeReleasePlanInput, UpdateReleasePlanInput } from "../../../../src/domain/releaseplans/ReleasePlan.js"

export const createReleasePlan: CreateReleasePlanInput = {
  environment: "production",
  ruleId: "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
  variationKey: "on",
  steps: [
    { weight: 25_000, holdMinutes: 360 },
    { weight: 50_000, holdMinutes: 360 },
    { weight: 100_000, holdMinutes: 720 }
  ],
  guardrails: [{ key: "errors", event: "checkout-error", kind: "conversion", goal: "decrease", role: "guardrail" }],
  onHarm: "rollback"
}

export const updateReleasePlan: UpdateReleasePlanInput = { onHarm: "pause" }

export const resumeReleasePlan: ResumeReleasePlanInput = { confirm: true }

/** A running plan at its first step, started by a key. */
export const releasePlan: ReleasePlan = {
  id: "01a2089c-1f3e-7a10-9b2d-5c8e4f7a6b31",
  flagKey: "new-checkout",
  environment: "production",
  ruleId: createReleasePlan.ruleId,
  variationKey: "on",
  steps: createReleasePlan.steps,
  guardrails: createReleasePlan.guardrails ?? [],
  onHarm: "pause",
  alpha: 0.05,
  status: "running",
  currentStep: 0,
  nextStepAt: "2026-12-02T15:00:00.000Z",
  pausedBy: null,
  failure: null,
  harm: null,
  baseline: [{ variationKey: "off", weight: 90_000 }],
  startedBy: { type: "key", keyId: "01a2089b-0c1d-7e2f-8a3b-4c5d6e7f8a9b", keyName: "Release tooling" },
  startedAt: "2026-12-02T09:00:00.000Z",
  completedAt: null,
  version: 3,
  createdAt: "2026-12-02T08:50:00.000Z",
  updatedAt: "2026-12-02T09:00:00.000Z"
}

/** Conversion moments of `units` of which `erred` sent the event (sum and sum of squares alike). */
const conversions = (units: number, erred: number) => ({ n: units, sum: erred, sumSquares: erred })

/**
 * The example plan's guardrails a few hours in: 1,013 treatment units of which 52 erred against
 * 19,241 control units of which 954 did. Computed by the check itself, so the figures are real.
 */
export const guardrails: GuardrailCheck = checkGuardrails(
  [{ key: "errors", goal: "decrease", treatment: conversions(1013, 52), control: conversions(19_241, 954) }],
  { alpha: 0.05, plannedUnits: ANALYSIS_DEFAULTS.plannedUnits }
)
