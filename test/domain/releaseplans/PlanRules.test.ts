import { describe, expect, it } from "@effect/vitest"
import { PLAN_RULES, planProblems } from "../../../src/domain/releaseplans/PlanRules.js"
import { flagWith, shape } from "./fixtures.js"

const errors = { key: "errors", event: "error", kind: "conversion", goal: "decrease", role: "guardrail" } as const

describe("release plan rules (one table)", () => {
  it("a good plan has no problem", () => {
    expect(planProblems(shape(), flagWith())).toEqual([])
    // A rule serving one variation is that variation at 100%: a plan may ramp another up from it.
    expect(planProblems(shape(), flagWith([{ id: "split", conditions: [], variationKey: "off" }]))).toEqual([])
  })

  it.each([
    ["no steps", shape({ steps: [] }), [{ path: "steps", message: "must have at least one step" }]],
    ["too many steps", shape({ steps: Array.from({ length: 21 }, (_, i) => ({ weight: i + 1, holdMinutes: 1 })) }), [{ path: "steps", message: "must have at most 20 steps" }]],
    ["a weight of 0", shape({ steps: [{ weight: 0, holdMinutes: 1 }] }), [{ path: "steps[0].weight", message: "must be a whole number from 1 to 100000 (thousandths of a percent)" }]],
    ["a fractional weight", shape({ steps: [{ weight: 1.5, holdMinutes: 1 }] }), [{ path: "steps[0].weight", message: "must be a whole number from 1 to 100000 (thousandths of a percent)" }]],
    ["a weight over 100%", shape({ steps: [{ weight: 100_001, holdMinutes: 1 }] }), [{ path: "steps[0].weight", message: "must be a whole number from 1 to 100000 (thousandths of a percent)" }]],
    ["weights not rising", shape({ steps: [{ weight: 5_000, holdMinutes: 1 }, { weight: 5_000, holdMinutes: 1 }] }), [{ path: "steps[1].weight", message: "must be greater than the previous step's weight (5000)" }]],
    ["a hold too short", shape({ steps: [{ weight: 5_000, holdMinutes: 0.01 }] }), [{ path: "steps[0].holdMinutes", message: "must be a number of minutes from 0.05 to 43200" }]],
    ["a hold too long", shape({ steps: [{ weight: 5_000, holdMinutes: 50_000 }] }), [{ path: "steps[0].holdMinutes", message: "must be a number of minutes from 0.05 to 43200" }]],
    ["a hold not finite", shape({ steps: [{ weight: 5_000, holdMinutes: Number.NaN }] }), [{ path: "steps[0].holdMinutes", message: "must be a number of minutes from 0.05 to 43200" }]],
    ["a guardrail key twice", shape({ guardrails: [errors, errors] }), [{ path: "guardrails[1].key", message: "'errors' is already the key of another guardrail" }]],
    ["too many guardrails", shape({ guardrails: Array.from({ length: 11 }, (_, i) => ({ ...errors, key: `m${i}` })) }), [{ path: "guardrails", message: "must have at most 10 metrics" }]],
    ["alpha 0", shape({ alpha: 0 }), [{ path: "alpha", message: "must be greater than 0 and at most 0.5" }]],
    ["alpha over 0.5", shape({ alpha: 0.6 }), [{ path: "alpha", message: "must be greater than 0 and at most 0.5" }]],
    ["an unknown environment", shape({ environment: "qa" }), [{ path: "environment", message: "flag 'checkout' has no environment 'qa'" }]],
    ["an unknown variation", shape({ variationKey: "red" }), [{ path: "variationKey", message: "flag 'checkout' has no variation 'red'" }]],
    ["an unknown rule", shape({ ruleId: "nope" }), [{ path: "ruleId", message: "flag 'checkout' has no rule 'nope' in environment 'production'" }]],
    ["a rule in another environment", shape({ environment: "staging" }), [{ path: "ruleId", message: "flag 'checkout' has no rule 'split' in environment 'staging'" }]]
  ])("%s", (_name, plan, expected) => {
    expect(planProblems(plan, flagWith())).toEqual(expected)
  })

  it("a rule that serves only the plan's variation leaves it no control", () => {
    const only = flagWith([{ id: "split", conditions: [], rollout: { variations: [{ variationKey: "green", weight: 100_000 }, { variationKey: "off", weight: 0 }] } }])
    expect(planProblems(shape(), only)).toEqual([
      { path: "ruleId", message: "rule 'split' serves no variation but 'green'; a plan ramps up from the variations a rule serves now" }
    ])
  })

  it("every problem is reported, in the table's order", () => {
    const problems = planProblems(shape({ steps: [], alpha: 1, variationKey: "red" }), flagWith())
    expect(problems.map((p) => p.path)).toEqual(["steps", "alpha", "variationKey"])
    expect(PLAN_RULES.length).toBe(9)
  })
})
