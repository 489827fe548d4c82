import { describe, expect, it } from "@effect/vitest"
import { ReleasePlanStatus } from "../../../src/domain/releaseplans/ReleasePlan.js"
import * as T from "../../../src/domain/releaseplans/Transitions.js"
import { storedPlan } from "../../fixtures/ReleasePlans.js"

const T0 = Date.parse("2026-12-01T00:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()

describe("release plan transitions", () => {
  it.each(ReleasePlanStatus.literals.flatMap((status) => (Object.keys(T.ALLOWED_FROM) as Array<T.PlanAction>).map((action) => [action, status] as const)))(
    "%s from %s follows the table",
    (action, status) => {
      const refusal = T.refusal(action, storedPlan("rp", { status }))
      expect(refusal === null).toBe(T.ALLOWED_FROM[action].includes(status))
      if (refusal !== null) expect(refusal).toBe(`Release plan 'rp' is ${status}; ${action} is allowed only when it is ${T.ALLOWED_FROM[action].join(" or ")}`)
    }
  )

  it.each([
    ["a harmed plan (rolled back)", { status: "harmed" as const, pausedBy: null }, true],
    ["a plan paused by a person's change to its targeting", { status: "paused" as const, pausedBy: "targetingChanged" as const }, true],
    ["a plan paused by hand", { status: "paused" as const, pausedBy: "manual" as const }, false],
    ["a plan whose step failed", { status: "paused" as const, pausedBy: "stepFailed" as const }, false]
  ])("resuming %s needs an approval in a protected environment: %s", (_, fields, needs) => {
    expect(T.resumeNeedsApproval(storedPlan("rp", fields))).toBe(needs)
  })

  it("start, steps, completion: each bumps the version, the hold runs from the step", () => {
    const started = T.started(storedPlan("rp"), [{ variationKey: "off", weight: 100_000 }], { type: "key", keyId: "k1" }, T0)
    expect(started).toMatchObject({ status: "running", currentStep: null, nextStepAt: iso(T0), startedAt: iso(T0), version: 2 })
    expect(T.nextStepIndex(started)).toBe(0)
    const first = T.stepped(started, 0, T0 + 1_000)
    expect(first).toMatchObject({ currentStep: 0, nextStepAt: iso(T0 + 1_000 + 3_000), version: 3 })
    const last = T.stepped(first, 1, T0 + 5_000)
    expect(T.nextStepIndex(last)).toBe(null)
    expect(last.nextStepAt).toBe(iso(T0 + 5_000 + 60.5 * 60_000))
    expect(T.completed(last, T0 + 9_000)).toMatchObject({ status: "completed", nextStepAt: null, completedAt: iso(T0 + 9_000) })
  })

  it("resume holds the current weight again; after a failed step or a rollback it acts at once (a rollback from the first step)", () => {
    const atFirst = T.stepped(T.started(storedPlan("rp"), [], { type: "cli" }, T0), 0, T0)
    expect(T.resumed(T.paused(atFirst, "manual", T0 + 1), T0 + 10)).toMatchObject({ status: "running", pausedBy: null, currentStep: 0, nextStepAt: iso(T0 + 10 + 3_000) })
    expect(T.resumed(T.paused(atFirst, "stepFailed", T0 + 1, "gone"), T0 + 10)).toMatchObject({ failure: null, nextStepAt: iso(T0 + 10) })
    const harm = { at: iso(T0), action: "rolledBack" as const, weight: 5_000, check: { outcome: "harmed" as const, guardrails: [], minimumUnits: 100 } }
    const rolledBack = T.harmed(atFirst, harm, T0 + 2)
    expect(rolledBack).toMatchObject({ status: "harmed", currentStep: null, harm })
    expect(T.resumed(rolledBack, T0 + 10)).toMatchObject({ status: "running", currentStep: null, nextStepAt: iso(T0 + 10) })
    const pausedByHarm = T.harmed(atFirst, { ...harm, action: "paused" }, T0 + 2)
    expect(pausedByHarm.currentStep).toBe(0)
  })
})
