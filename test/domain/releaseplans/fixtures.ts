import type { Flag } from "../../../src/domain/definitions/Flag.js"
import type { Rule } from "../../../src/domain/definitions/Targeting.js"
import type { PlanShape } from "../../../src/domain/releaseplans/PlanRules.js"

/** A three-variation flag whose production rule `split` serves off 60%, blue 40%. */
export const splitRule: Rule = {
  id: "split",
  conditions: [],
  rollout: { variations: [{ variationKey: "off", weight: 60_000 }, { variationKey: "blue", weight: 40_000 }] }
}

export const flagWith = (rules: ReadonlyArray<Rule> = [splitRule]): Flag => ({
  id: "f1",
  key: "checkout",
  name: "checkout",
  description: null,
  type: "string",
  variations: [{ key: "off", value: "off" }, { key: "blue", value: "blue" }, { key: "green", value: "green" }],
  configs: [
    { environmentKey: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", prerequisites: [], rules },
    { environmentKey: "staging", enabled: true, defaultVariationKey: "off", offVariationKey: "off", prerequisites: [], rules: [] }
  ],
  createdAt: "2026-12-01T00:00:00.000Z",
  updatedAt: "2026-12-01T00:00:00.000Z",
  version: 1
})

export const shape = (overrides: Partial<PlanShape> = {}): PlanShape => ({
  flagKey: "checkout",
  environment: "production",
  ruleId: "split",
  variationKey: "green",
  steps: [{ weight: 5_000, holdMinutes: 60 }, { weight: 25_000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 0.05 }],
  guardrails: [],
  alpha: 0.05,
  ...overrides
})
