/** How `flagport change-requests show` prints a request's release plans: the lines a script reads, and the plan as pinned. */
import { describe, expect, it } from "vitest"
import { planChangeText, requestDetail, requestLines } from "../../adapters/cli/ChangeRequestText.js"
import { changeRequest } from "../../adapters/http/api/Examples.js"
import { storedPlan } from "../fixtures/ReleasePlans.js"

const plan = storedPlan("rp-1", {
  flagKey: "new-checkout",
  ruleId: "all",
  variationKey: "on",
  steps: [{ weight: 2_500, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 0.05 }],
  guardrails: [{ key: "errors", event: "error", kind: "conversion", goal: "decrease", role: "guardrail" }],
  onHarm: "rollback",
  version: 4
})
const change = { flagKey: "new-checkout", planId: "rp-1", action: "start" as const, baseVersion: 4, plan }

describe("a change request's release plans in the terminal", () => {
  it("a plan's start reads as what it ramps, its steps and its guardrails", () => {
    expect(planChangeText(change)).toEqual([
      "Start release plan rp-1 of new-checkout (based on version 4)",
      "  ramps on on rule all: 2.5% for 60 min, then 100% for 0.05 min",
      "  guardrails: errors; on harm: rollback; alpha 0.05"
    ])
  })

  it("a resume after harm says what the harm did", () => {
    const harmed = { ...plan, status: "harmed" as const, harm: { at: "2026-12-01T10:00:00.000Z", action: "rolledBack" as const, weight: 2_500, check: { outcome: "harmed" as const, minimumUnits: 100, guardrails: [] } } }
    expect(planChangeText({ ...change, action: "resume", plan: harmed })).toContain("  harmed at 2026-12-01T10:00:00.000Z (rolled back at 2.5%)")
  })

  it("show names the plans in a line of their own only when there are some, and prints them below the changes", () => {
    expect(requestLines(changeRequest).some((line) => line.startsWith("RELEASE_PLANS="))).toBe(false)
    const withPlan = { ...changeRequest, changes: [], segments: [], releasePlans: [change] }
    expect(requestLines(withPlan)).toContain("RELEASE_PLANS=start:new-checkout/rp-1")
    expect(requestDetail(withPlan)).toEqual(["", changeRequest.description, "", ...planChangeText(change)])
  })
})
