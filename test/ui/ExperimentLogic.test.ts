/**
 * The experiments' pure helpers: which rules of a flag an experiment may measure, how a rule
 * reads, and the create form's body (typed numbers that are not numbers go to the API as null,
 * which refuses them by their field, rather than the page inventing a value).
 */
import { describe, expect, it } from "vitest"
import { createBody, DEFAULT_ANALYSIS, NEW_METRIC, rolloutRules } from "../../ui/lib/experiments.js"
import type { Flag } from "../../ui/lib/types.js"

const flag = {
  key: "new-checkout",
  variations: [{ key: "v2", value: true }, { key: "classic", value: false }, { key: "v3", value: true }],
  configs: [
    {
      environmentKey: "production",
      rules: [
        { id: "r-beta", name: "Beta list", conditions: [], variationKey: "v2" },
        { id: "r-half", name: "Half", conditions: [], rollout: { variations: [{ variationKey: "v2", weight: 50_000 }, { variationKey: "classic", weight: 50_000 }, { variationKey: "v3", weight: 0 }] } },
        { id: "r-rest", conditions: [], rollout: { variations: [{ variationKey: "classic", weight: 12_500 }, { variationKey: "v3", weight: 87_500 }] } }
      ]
    },
    { environmentKey: "development", rules: [] }
  ]
} as unknown as Flag

describe("rolloutRules", () => {
  it("offers only the rules that split units by a percentage, numbered by their place in the targeting, with the variations they serve", () => {
    expect(rolloutRules(flag, "production")).toEqual([
      { id: "r-half", label: "Rule 2 “Half”: v2 50%, classic 50%, v3 0%", served: ["v2", "classic"] },
      { id: "r-rest", label: "Rule 3: classic 12.5%, v3 87.5%", served: ["classic", "v3"] }
    ])
  })

  it("offers none for an environment without such a rule, an unknown environment or no flag", () => {
    expect(rolloutRules(flag, "development")).toEqual([])
    expect(rolloutRules(flag, "staging")).toEqual([])
    expect(rolloutRules(undefined, "production")).toEqual([])
  })
})

describe("createBody", () => {
  const draft = {
    key: "checkout-redesign",
    name: "",
    hypothesis: "  ",
    flagKey: "new-checkout",
    environment: "production",
    ruleId: "r-half",
    controlVariationKey: "classic",
    metrics: [{ ...NEW_METRIC, key: "purchases", event: "purchase", windowHours: "168" }, { ...NEW_METRIC, key: "revenue", event: "purchase", kind: "mean" as const, role: "secondary" as const }],
    method: DEFAULT_ANALYSIS.method,
    alpha: "0.05",
    cuped: true,
    preWindowDays: "7",
    plannedUnits: "20000"
  }

  it("sends the typed fields, leaving out an empty name and hypothesis and an empty window", () => {
    expect(createBody(draft)).toEqual({
      key: "checkout-redesign",
      flagKey: "new-checkout",
      environment: "production",
      ruleId: "r-half",
      controlVariationKey: "classic",
      metrics: [
        { key: "purchases", event: "purchase", kind: "conversion", goal: "increase", role: "primary", windowHours: 168 },
        { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" }
      ],
      analysis: { method: "sequential", alpha: 0.05, cuped: true, preWindowDays: 7, plannedUnits: 20_000 }
    })
  })

  it("sends what is not a number as null, for the API to refuse by its field", () => {
    const body = createBody({ ...draft, alpha: "", plannedUnits: "lots", metrics: [{ ...draft.metrics[0]!, windowHours: "a week" }] })
    expect(body.analysis).toMatchObject({ alpha: null, plannedUnits: null })
    expect(body.metrics[0]).toMatchObject({ windowHours: null })
  })
})
