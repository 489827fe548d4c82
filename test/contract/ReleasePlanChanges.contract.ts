import { expect } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { ChangeRequestMessages } from "../../src/domain/changes/ChangeRequestRules.js"
import type { GuardrailCheck } from "../../src/domain/experiments/Guardrail.js"
import { ChangeRequestRepository } from "../../src/ports/ChangeRequestRepository.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { ChangeRequests } from "../../src/services/changes/ChangeRequests.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Guardrails } from "../../src/services/releaseplans/Guardrails.js"
import { ReleasePlans } from "../../src/services/releaseplans/ReleasePlans.js"
import { type Contract, failureTag } from "./Backend.js"
import { as, atDay, givenProtected, input, minutes, OPERATOR, planAudit, ruleWeights, step } from "./ReleasePlanSetup.js"

/**
 * Release plans in a protected environment, on every backend: a person's start is a change request
 * (the plan pinned, approved once, its steps then applied without approvals as the plan's own
 * writes), a plan edited after the approval refused as a moved flag is, the request's plans checked
 * when it is opened, a resume after harm or over a person's change a request too (pause, cancel and
 * a resume after a pause by hand direct), a request applied at a set time, and a request's
 * targeting change pausing the plan it ramps.
 */

export const releasePlanChangesContract: Contract = (it) => {
  it.effect("protected: a person's start is 409 change_request_required; a change request starts the plan once approved, and its steps apply without approvals", () =>
    atDay(() => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const crs = yield* ChangeRequests
      const flags = yield* Flags
      const { projectId, approver } = yield* givenProtected
      const plan = yield* plans.create(projectId, "flag", input())
      expect(yield* failureTag(as(approver, plans.start(projectId, "flag", plan.id)))).toBe("ChangeRequestRequired")
      const opened = yield* as(OPERATOR, crs.open(projectId, {
        title: "Ramp the flag up",
        environment: "production",
        releasePlans: [{ flagKey: "flag", planId: plan.id, action: "start" }]
      }))
      expect(opened).toMatchObject({ status: "open", changes: [], releasePlans: [{ flagKey: "flag", planId: plan.id, action: "start", baseVersion: plan.version, plan }] })
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      // The approver applies it: a person, in a protected environment, allowed by the request.
      expect(yield* as(approver, crs.apply(projectId, opened.id))).toMatchObject({ status: "applied" })
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "running", startedBy: approver })
      // The environment stays protected for people; the plan's steps are not a person's hand.
      const body = { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "all", conditions: [], variationKey: "on" }] }
      expect(yield* failureTag(as(approver, flags.replaceTargeting(projectId, "flag", body)))).toBe("ChangeRequestRequired")
      expect(yield* step()).toEqual(["advanced"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 10_000], ["off", 90_000]])
      yield* minutes(1)
      expect(yield* step()).toEqual(["advanced"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 50_000], ["off", 50_000]])
      // The start's audit entry names the request; its webhook events are the usual ones.
      const started = (yield* planAudit(projectId)).find((e) => e.action === "release_plan.started")
      expect(started).toMatchObject({ actor: approver, changeRequestId: opened.id })
      const events = (yield* (yield* EventOutbox).list(projectId)).map((e) => e.event.type).filter((t) => t.startsWith("change_request.") || t.startsWith("release_plan."))
      expect(events).toEqual(["change_request.opened", "change_request.approved", "release_plan.started", "change_request.applied", "release_plan.advanced", "release_plan.advanced"])
      yield* plans.cancel(projectId, "flag", plan.id)
    })))

  it.effect("protected: a plan edited after its request was approved is the 409 a moved flag gets; nothing starts, the request stays approved", () =>
    atDay(() => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const crs = yield* ChangeRequests
      const { projectId, approver } = yield* givenProtected
      const plan = yield* plans.create(projectId, "flag", input())
      const opened = yield* as(OPERATOR, crs.open(projectId, { title: "Ramp", environment: "production", releasePlans: [{ flagKey: "flag", planId: plan.id, action: "start" }] }))
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      yield* plans.update(projectId, "flag", plan.id, { steps: [{ weight: 100_000, holdMinutes: 1 }] })
      const refused = yield* Effect.flip(as(approver, crs.apply(projectId, opened.id)))
      expect(refused).toMatchObject({ _tag: "ResourceConflict", message: ChangeRequestMessages.plansMovedOn([plan.id]) })
      expect((yield* crs.get(projectId, opened.id)).status).toBe("approved")
      expect((yield* plans.get(projectId, "flag", plan.id)).status).toBe("draft")
      expect(yield* step()).toEqual([])
      // Its author brings it up to date: the plan pinned again, the approvals cleared.
      const updated = yield* as(OPERATOR, crs.update(projectId, opened.id, { releasePlans: [{ flagKey: "flag", planId: plan.id, action: "start" }] }))
      expect(updated).toMatchObject({ status: "open", approvals: [], releasePlans: [{ baseVersion: plan.version + 1 }] })
      expect(updated.releasePlans[0]?.plan.steps).toEqual([{ weight: 100_000, holdMinutes: 1 }])
    })))

  it.effect("a request's plans are checked when it is opened: something to propose (400), the plan's environment (400), its status (409), a rival plan (409)", () =>
    atDay(() => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const crs = yield* ChangeRequests
      const { projectId } = yield* givenProtected
      const open = (releasePlans: ReadonlyArray<{ flagKey: string; planId: string; action: "start" | "resume" }>, environment = "production") =>
        Effect.flip(as(OPERATOR, crs.open(projectId, { title: "Ramp", environment, releasePlans })))
      const nothing = yield* open([])
      expect(nothing._tag === "InvalidRequest" && nothing.details).toEqual([{ path: "changes", message: ChangeRequestMessages.nothingProposed }])
      yield* (yield* Flags).replaceTargeting(projectId, "flag", {
        environment: "staging", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "all", conditions: [], variationKey: "off" }]
      })
      const staged = yield* plans.create(projectId, "flag", input({ environment: "staging" }))
      const elsewhere = yield* open([{ flagKey: "flag", planId: staged.id, action: "start" }])
      expect(elsewhere._tag === "InvalidRequest" && elsewhere.details).toEqual([
        { path: "releasePlans[0].planId", message: "is not a plan of 'production', the environment of the change request" }
      ])
      const plan = yield* plans.create(projectId, "flag", input())
      expect((yield* open([{ flagKey: "flag", planId: plan.id, action: "resume" }]))._tag).toBe("ResourceConflict")
      expect((yield* open([{ flagKey: "flag", planId: "rp-ghost", action: "start" }]))._tag).toBe("ResourceNotFound")
      const twice = yield* open([{ flagKey: "flag", planId: plan.id, action: "start" }, { flagKey: "flag", planId: plan.id, action: "start" }])
      expect(twice._tag === "InvalidRequest" && twice.details.map((d) => d.path)).toEqual(["releasePlans[1].flagKey"])
      const rival = yield* plans.create(projectId, "flag", input())
      yield* as(OPERATOR, plans.start(projectId, "flag", rival.id))
      const held = yield* open([{ flagKey: "flag", planId: plan.id, action: "start" }])
      expect(held.message).toContain(`Release plan '${rival.id}' already ramps flag 'flag'`)
      yield* plans.cancel(projectId, "flag", rival.id)
    })))

  it.effect("protected: resuming after harm, or over a person's change, is a change request; a plan paused by hand resumes directly", () =>
    atDay(() => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const crs = yield* ChangeRequests
      const { projectId, approver } = yield* givenProtected
      const guardrails = [{ key: "errors", event: "error", kind: "conversion" as const, goal: "decrease" as const, role: "guardrail" as const }]
      const plan = yield* plans.create(projectId, "flag", input({ guardrails, onHarm: "rollback" }))
      yield* as(OPERATOR, plans.start(projectId, "flag", plan.id))
      const harmed: GuardrailCheck = { outcome: "harmed", minimumUnits: 100, guardrails: [] }
      let verdict: GuardrailCheck = { ...harmed, outcome: "ok" }
      const withGuard = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.provide(self, Layer.succeed(Guardrails, { check: () => Effect.sync(() => verdict) }))
      expect(yield* withGuard(step())).toEqual(["advanced"])
      // A person pauses and resumes by hand: both make nothing riskier than what was approved.
      yield* as(approver, plans.pause(projectId, "flag", plan.id))
      expect(yield* as(approver, plans.resume(projectId, "flag", plan.id, {}))).toMatchObject({ status: "running" })
      verdict = harmed
      yield* TestClock.adjust("61 seconds")
      expect(yield* withGuard(step())).toEqual(["harmed"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 0], ["off", 100_000]])
      expect(yield* failureTag(as(approver, plans.resume(projectId, "flag", plan.id, {})))).toBe("ChangeRequestRequired")
      const opened = yield* as(OPERATOR, crs.open(projectId, { title: "Fixed: ramp again", environment: "production", releasePlans: [{ flagKey: "flag", planId: plan.id, action: "resume" }] }))
      yield* as(approver, crs.approve(projectId, opened.id, {}))
      yield* as(approver, crs.apply(projectId, opened.id))
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "running", currentStep: null })
      verdict = { ...harmed, outcome: "ok" }
      expect(yield* withGuard(step())).toEqual(["advanced"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 10_000], ["off", 90_000]])
      // Cancel stays direct: it makes nothing riskier.
      expect(yield* as(approver, plans.cancel(projectId, "flag", plan.id))).toMatchObject({ status: "cancelled" })
      expect((yield* planAudit(projectId)).filter((e) => e.action === "release_plan.resumed").map((e) => e.changeRequestId)).toEqual([undefined, opened.id])
    })))

  it.effect("protected: a request that starts a plan at a set time is applied by the scheduler once approved; one whose plan was edited since fails, saying so", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const crs = yield* ChangeRequests
      const stored = yield* ChangeRequestRepository
      const { projectId, approver } = yield* givenProtected
      const applyAt = new Date(day + 60_000).toISOString()
      const scheduled = (planId: string) =>
        Effect.flatMap(as(OPERATOR, crs.open(projectId, { title: "Ramp at launch", environment: "production", applyAt, releasePlans: [{ flagKey: "flag", planId, action: "start" }] })), (opened) =>
          Effect.zipRight(as(approver, crs.approve(projectId, opened.id, {})), Effect.map(stored.get(projectId, opened.id), Option.getOrThrow)))
      const edited = yield* plans.create(projectId, "flag", input())
      const failing = yield* scheduled(edited.id)
      yield* plans.update(projectId, "flag", edited.id, { onHarm: "rollback" })
      expect(yield* crs.applyDue(failing)).toBe("failed")
      expect(yield* crs.get(projectId, failing.id)).toMatchObject({ status: "approved", failure: ChangeRequestMessages.plansMovedOn([edited.id]) })
      expect((yield* plans.get(projectId, "flag", edited.id)).status).toBe("draft")
      yield* plans.remove(projectId, "flag", edited.id)

      const plan = yield* plans.create(projectId, "flag", input())
      const due = yield* scheduled(plan.id)
      expect(yield* crs.applyDue(due)).toBe("applied")
      // The scheduler's actor names the request's author (the operator here): the plan's starter.
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "running", startedBy: { type: "schedule" } })
      expect(yield* step()).toEqual(["advanced"])
      yield* plans.cancel(projectId, "flag", plan.id)
    })))

  it.effect("protected: a request's targeting change to a ramped flag pauses its plan, and resuming it is then a request of its own", () =>
    atDay(() => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const crs = yield* ChangeRequests
      const { projectId, approver } = yield* givenProtected
      const plan = yield* plans.create(projectId, "flag", input())
      yield* as(OPERATOR, plans.start(projectId, "flag", plan.id))
      expect(yield* step()).toEqual(["advanced"])
      const targeting = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [{ id: "all", conditions: [], variationKey: "off" }] }
      const change = yield* as(OPERATOR, crs.open(projectId, { title: "Default on", environment: "production", changes: [{ flagKey: "flag", targeting }] }))
      yield* as(approver, crs.approve(projectId, change.id, {}))
      yield* as(approver, crs.apply(projectId, change.id))
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "paused", pausedBy: "targetingChanged" })
      expect(yield* failureTag(as(approver, plans.resume(projectId, "flag", plan.id, { confirm: true })))).toBe("ChangeRequestRequired")
      const resume = yield* as(OPERATOR, crs.open(projectId, { title: "Ramp on", environment: "production", releasePlans: [{ flagKey: "flag", planId: plan.id, action: "resume" }] }))
      yield* as(approver, crs.approve(projectId, resume.id, {}))
      yield* as(approver, crs.apply(projectId, resume.id))
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "running", pausedBy: null })
      yield* plans.cancel(projectId, "flag", plan.id)
    })))
}
