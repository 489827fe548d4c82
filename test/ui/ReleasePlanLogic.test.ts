/** The flag page's release plan helpers: the editor's templates, a plan's timeline, figures in words. */
import { describe, expect, it } from "vitest"
import { changeText, draftOfPlan, holdText, NEW_GUARDRAIL, newDraft, PLAN_TEMPLATES, planBody, planRules, timeline, verdictText, weightText, type GuardrailFigures } from "../../ui/lib/releasePlans.js"

const steps = [{ weight: 5_000, holdMinutes: 60 }, { weight: 25_000, holdMinutes: 60 }, { weight: 50_000, holdMinutes: 30 }, { weight: 100_000, holdMinutes: 10 }]

describe("PLAN_TEMPLATES", () => {
  it("ramps 5/25/50/100 over a day and 1/10/50/100 over a week, ending at 100%", () => {
    const [day, week] = PLAN_TEMPLATES
    expect(day!.steps.map((s) => weightText(s.weight))).toEqual(["5%", "25%", "50%", "100%"])
    expect(day!.steps.reduce((m, s) => m + s.holdMinutes, 0)).toBe(24 * 60)
    expect(week!.steps.map((s) => weightText(s.weight))).toEqual(["1%", "10%", "50%", "100%"])
    expect(week!.steps.reduce((m, s) => m + s.holdMinutes, 0)).toBe(7 * 24 * 60)
  })
})

describe("timeline", () => {
  it("marks the steps done and current, the next with its time and the later ones when they would come", () => {
    const shown = timeline({ status: "running", steps, currentStep: 1, nextStepAt: "2026-12-07T10:00:00.000Z" })
    expect(shown.map((s) => [s.state, s.at])).toEqual([
      ["done", null],
      ["current", null],
      ["next", "2026-12-07T10:00:00.000Z"],
      ["later", "2026-12-07T10:30:00.000Z"]
    ])
  })

  it("gives a paused plan's next step no time, and a completed plan every step done", () => {
    expect(timeline({ status: "paused", steps, currentStep: 0, nextStepAt: null }).map((s) => [s.state, s.at])).toEqual([
      ["current", null], ["next", null], ["later", null], ["later", null]
    ])
    expect(timeline({ status: "completed", steps, currentStep: 3, nextStepAt: null }).every((s) => s.state === "done")).toBe(true)
  })

  it("after a rollback (no current step) the first step is next", () => {
    expect(timeline({ status: "harmed", steps, currentStep: null, nextStepAt: null })[0]!.state).toBe("next")
    const started = timeline({ status: "running", steps, currentStep: null, nextStepAt: "2026-12-07T10:00:00.000Z" })
    expect(started.map((s) => s.at)).toEqual(["2026-12-07T10:00:00.000Z", "2026-12-07T11:00:00.000Z", "2026-12-07T12:00:00.000Z", "2026-12-07T12:30:00.000Z"])
  })
})

describe("figures in words", () => {
  const figures: GuardrailFigures = {
    metricKey: "errors",
    goal: "decrease",
    treatment: { units: 400, mean: 0.1 },
    control: { units: 7_600, mean: 0.05 },
    relative: { estimate: 1, ci: [0.31, 1.69] },
    absolute: { estimate: 0.05, ci: [0.015, 0.085] },
    notEnoughData: false,
    harmed: true
  }

  it("says the lift with its interval, or the difference when there is no lift, or that there is no data", () => {
    expect(changeText(figures)).toBe("+100.0% (+31.0% to +169.0%)")
    expect(changeText({ ...figures, relative: null })).toBe("+0.05 (+0.015 to +0.085)")
    expect(changeText({ ...figures, relative: null, absolute: null })).toBe("no data yet")
  })

  it("says harmed, waiting, or no harm shown", () => {
    expect(verdictText(figures, 100)).toBe("harmed")
    expect(verdictText({ ...figures, harmed: false, notEnoughData: true }, 100)).toBe("waiting for 100 units in each arm")
    expect(verdictText({ ...figures, harmed: false }, 100)).toBe("no harm shown")
  })

  it("says holds in the largest unit that reads well", () => {
    expect([0.05, 45, 360, 2_520, 10_080].map(holdText)).toEqual(["3 s", "45 min", "6 h", "42 h", "7 d"])
  })
})

describe("the plan editor's body", () => {
  it("sends a template's steps as weights and holds, the guardrails without an empty window, typed numbers as numbers", () => {
    const draft = { ...newDraft("half", "on"), guardrails: [{ ...NEW_GUARDRAIL, key: "errors", event: "checkout-error" }], onHarm: "rollback" as const, alpha: "0.1" }
    expect(planBody(draft)).toEqual({
      ruleId: "half",
      variationKey: "on",
      steps: [{ weight: 5_000, holdMinutes: 360 }, { weight: 25_000, holdMinutes: 360 }, { weight: 50_000, holdMinutes: 360 }, { weight: 100_000, holdMinutes: 360 }],
      guardrails: [{ key: "errors", event: "checkout-error", kind: "conversion", goal: "decrease", role: "guardrail" }],
      onHarm: "rollback",
      alpha: 0.1
    })
  })

  it("sends what is not a number as NaN (null on the wire), for the API to refuse next to its field", () => {
    const body = planBody({ ...newDraft("half", "on"), steps: [{ percent: "", holdMinutes: "ten" }], alpha: "" })
    expect(JSON.parse(JSON.stringify(body)).steps).toEqual([{ weight: null, holdMinutes: null }])
    expect(JSON.parse(JSON.stringify(body)).alpha).toBeNull()
  })

  it("edits a saved draft as it is: the same body back", () => {
    const saved = { ruleId: "half", variationKey: "on", steps: [{ weight: 1_500, holdMinutes: 0.05 }], guardrails: [{ key: "errors", event: "e", kind: "conversion" as const, goal: "decrease" as const, role: "guardrail" as const, windowHours: 24 }], onHarm: "pause" as const, alpha: 0.05 }
    expect(planBody(draftOfPlan(saved))).toEqual(saved)
  })

  it("labels every rule with what it serves, a single variation as 100%", () => {
    expect(planRules([
      { id: "beta", name: "Beta list", variationKey: "on" },
      { id: "half", rollout: { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }
    ])).toEqual([{ id: "beta", label: "Rule 1 “Beta list”: on 100%" }, { id: "half", label: "Rule 2: on 50%, off 50%" }])
  })
})
