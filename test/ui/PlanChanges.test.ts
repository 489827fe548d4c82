/** A change request's release plans on the Change requests page, in words (ui/lib/planChanges.ts). */
import { describe, expect, it } from "vitest"
import { type PlanChange, planChangeView, plansMovedOn, upToDateBody } from "../../ui/lib/planChanges.js"
import type { ChangeRequest } from "../../ui/lib/types.js"
import { storedPlan } from "../fixtures/ReleasePlans.js"

// The domain's plan as the dashboard's generated type reads it (the same JSON).
const plan = storedPlan("rp-1", { steps: [{ weight: 2_500, holdMinutes: 0.05 }, { weight: 100_000, holdMinutes: 90 }], version: 3 }) as unknown as PlanChange["plan"]
const start = { flagKey: "flag", planId: "rp-1", action: "start" as const, baseVersion: 3, plan }

describe("a release plan a change request starts", () => {
  it("reads as what applying does, each step with its hold, the guardrails and what happens on harm", () => {
    expect(planChangeView(start)).toEqual({
      heading: "Start release plan rp-1",
      ramp: "Ramps “on” up on rule half, from plan version 3",
      steps: ["Step 1: 2.5% for 3 s", "Step 2: 100% for 90 min"],
      guardrails: "Guardrails: errors (alpha 0.05).",
      onHarm: "On harm: roll back to 0% at once.",
      harm: null
    })
    expect(planChangeView({ ...start, plan: { ...plan, guardrails: [], onHarm: "pause" as const } })).toMatchObject({
      guardrails: "No guardrails: the plan advances on time alone.",
      onHarm: "On harm: pause at the current weight."
    })
  })

  it("a resume after harm says what the harm did", () => {
    const check = { outcome: "harmed" as const, minimumUnits: 100, guardrails: [] }
    const harmed: PlanChange["plan"] = { ...plan, status: "harmed", harm: { at: "2026-12-01T00:00:00.000Z", action: "paused", weight: 2_500, check } }
    expect(planChangeView({ ...start, action: "resume", plan: harmed })).toMatchObject({
      heading: "Resume release plan rp-1",
      harm: "A guardrail found harm at 2.5%; the plan paused there."
    })
  })

  it("names the plans edited or deleted since they were pinned", () => {
    expect(plansMovedOn([start], new Map([["rp-1", 3]]))).toEqual([])
    expect(plansMovedOn([start], new Map([["rp-1", 4]]))).toEqual(["rp-1"])
    expect(plansMovedOn([start], new Map())).toEqual(["rp-1"])
  })

  it("brings a request up to date with what it proposes: its plans alone, or its changes and plans", () => {
    const request = { changes: [], releasePlans: [start] } as unknown as ChangeRequest
    expect(upToDateBody(request)).toEqual({ releasePlans: [{ flagKey: "flag", planId: "rp-1", action: "start" }] })
    const after = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
    const both = { changes: [{ flagKey: "other", baseVersion: 1, before: null, after }], releasePlans: [start] } as unknown as ChangeRequest
    expect(upToDateBody(both)).toEqual({ changes: [{ flagKey: "other", targeting: after }], releasePlans: [{ flagKey: "flag", planId: "rp-1", action: "start" }] })
  })
})
