import { expect } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { CurrentActor } from "../../src/domain/audit/Actor.js"
import type { GuardrailCheck } from "../../src/domain/experiments/Guardrail.js"
import { planAnalysisId } from "../../src/domain/releaseplans/PlanAnalysis.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { ReleasePlanRepository } from "../../src/ports/ReleasePlanRepository.js"
import { Ingestion } from "../../src/services/experiments/Ingestion.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Guardrails } from "../../src/services/releaseplans/Guardrails.js"
import { ReleasePlans } from "../../src/services/releaseplans/ReleasePlans.js"
import { booleanFlag, type Contract, failureTag } from "./Backend.js"
import { atDay, givenRule, input, minutes, planAudit, planEvents, ruleWeights, step } from "./ReleasePlanSetup.js"

/**
 * Release plans on every backend: the use cases (rules, life cycle, audit, webhook events) and the
 * stepper (each step a targeting write as the plan, exactly once, a person's change pausing the
 * plan, harm pausing or rolling back). Time is the TestClock's, from a fixed day in 2026.
 */

export const releasePlanContract: Contract = (it) => {
  it.effect("create checks the plan's rules (400 with every problem) and a flag that exists (404)", () =>
    Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const projectId = yield* givenRule
      const made = yield* plans.create(projectId, "flag", input())
      expect(made).toMatchObject({ status: "draft", onHarm: "pause", alpha: 0.05, guardrails: [], currentStep: null, version: 1 })
      expect(yield* plans.get(projectId, "flag", made.id)).toEqual(made)
      const refused = yield* Effect.flip(plans.create(projectId, "flag", input({ ruleId: "nope", steps: [{ weight: 0, holdMinutes: 1 }] })))
      expect(refused._tag === "InvalidRequest" && refused.details.map((p) => p.path)).toEqual(["steps[0].weight", "ruleId"])
      expect(yield* failureTag(plans.create(projectId, "ghost", input()))).toBe("ResourceNotFound")
      expect((yield* plans.list(projectId, "flag")).map((p) => p.id)).toEqual([made.id])
      expect((yield* planAudit(projectId)).map((e) => e.action)).toEqual(["release_plan.created"])
    }))

  it.effect("steps apply in order through the targeting write as the plan, each once, then the plan completes", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const projectId = yield* givenRule
      const plan = yield* plans.create(projectId, "flag", input())
      yield* Effect.provideService(plans.start(projectId, "flag", plan.id), CurrentActor, { type: "key", keyId: "k1", keyName: "deploy" })
      expect(yield* step()).toEqual(["advanced"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 10_000], ["off", 90_000]])
      expect(yield* step()).toEqual([]) // holding
      yield* minutes(1)
      expect(yield* step()).toEqual(["advanced"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 50_000], ["off", 50_000]])
      yield* minutes(1)
      expect(yield* step()).toEqual(["completed"])
      expect(yield* step()).toEqual([])
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "completed", currentStep: 1, nextStepAt: null })
      expect(yield* planEvents(projectId)).toEqual(["release_plan.started", "release_plan.advanced", "release_plan.advanced", "release_plan.completed"])
      // Each step is the targeting write's own audit entry too, with the plan as its actor.
      const audit = yield* (yield* Audit).list(projectId, { resourceType: "flag" })
      const steps = audit.data.filter((e) => e.actor.type === "releasePlan")
      expect(steps.map((e) => e.action)).toEqual(["targeting.updated", "targeting.updated"])
      expect(steps[0]!.actor).toEqual({ type: "releasePlan", id: plan.id, startedBy: { type: "key", keyId: "k1", keyName: "deploy" } })
      // The plan's own entries of what the stepper did are the plan's too, not the operator's.
      const stepper = (yield* planAudit(projectId)).filter((e) => e.action === "release_plan.advanced" || e.action === "release_plan.completed")
      expect(stepper.map((e) => [e.action, e.actor])).toEqual([
        ["release_plan.advanced", steps[0]!.actor],
        ["release_plan.advanced", steps[0]!.actor],
        ["release_plan.completed", steps[0]!.actor]
      ])
    })))

  it.effect("two steppers never apply one step twice; a lapsed lease is taken over, the late holder's step is rolled back", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const repo = yield* ReleasePlanRepository
      const projectId = yield* givenRule
      const plan = yield* plans.create(projectId, "flag", input())
      yield* plans.start(projectId, "flag", plan.id)
      const both = yield* Effect.all([step("one"), step("two")], { concurrency: 2 })
      expect(both.flat()).toEqual(["advanced"])
      // A stepper claims step 2 and stalls past its lease (a process that hangs, or dies mid-step).
      yield* minutes(1)
      const claimed = (yield* repo.claimDue({ now: new Date(day + 60_000).toISOString(), owner: "stalled", leaseUntil: new Date(day + 90_000).toISOString(), limit: 100 }))
        .filter((c) => c.projectId === projectId)
      expect(claimed.length).toBe(1)
      expect(yield* step("other")).toEqual([]) // leased
      yield* TestClock.adjust("31 seconds")
      expect(yield* step("other")).toEqual(["advanced"])
      const { advance } = yield* Effect.promise(() => import("../../src/services/releaseplans/ReleaseStepper.js"))
      expect(yield* advance("stalled", claimed[0]!)).toBe("lost")
      expect(yield* ruleWeights(projectId)).toEqual([["on", 50_000], ["off", 50_000]])
      expect((yield* planEvents(projectId)).filter((t) => t === "release_plan.advanced").length).toBe(2)
    })))

  it.effect("pause, resume, cancel follow the status table (409 otherwise); a paused plan takes no step", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const projectId = yield* givenRule
      const plan = yield* plans.create(projectId, "flag", input())
      expect(yield* failureTag(plans.pause(projectId, "flag", plan.id))).toBe("ResourceConflict")
      yield* plans.start(projectId, "flag", plan.id)
      const rival = yield* plans.create(projectId, "flag", input())
      expect(yield* failureTag(plans.start(projectId, "flag", rival.id))).toBe("ResourceConflict")
      yield* step()
      yield* plans.pause(projectId, "flag", plan.id)
      yield* minutes(5)
      expect(yield* step()).toEqual([])
      expect(yield* failureTag(plans.update(projectId, "flag", plan.id, { onHarm: "rollback" }))).toBe("ResourceConflict")
      expect(yield* failureTag(plans.remove(projectId, "flag", plan.id))).toBe("ResourceConflict")
      expect(yield* plans.resume(projectId, "flag", plan.id, {})).toMatchObject({ status: "running", currentStep: 0 })
      yield* minutes(1)
      expect(yield* step()).toEqual(["advanced"])
      expect(yield* plans.cancel(projectId, "flag", plan.id)).toMatchObject({ status: "cancelled" })
      yield* minutes(5)
      expect(yield* step()).toEqual([])
      yield* plans.remove(projectId, "flag", plan.id)
      expect(yield* failureTag(plans.get(projectId, "flag", plan.id))).toBe("ResourceNotFound")
      expect((yield* planAudit(projectId)).map((e) => e.action)).toEqual([
        "release_plan.created", "release_plan.started", "release_plan.created", "release_plan.advanced", "release_plan.paused",
        "release_plan.resumed", "release_plan.advanced", "release_plan.cancelled", "release_plan.deleted"
      ])
    })))

  it.effect("a person's direct targeting change pauses the plan; resume needs their confirmation; a key's change does not", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const flags = yield* Flags
      const projectId = yield* givenRule
      const plan = yield* plans.create(projectId, "flag", input())
      yield* plans.start(projectId, "flag", plan.id)
      yield* step()
      const current = (yield* flags.targeting(projectId, "flag", "production"))
      const body = { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: current.rules }
      yield* Effect.provideService(flags.replaceTargeting(projectId, "flag", body), CurrentActor, { type: "key", keyId: "k1" })
      expect((yield* plans.get(projectId, "flag", plan.id)).status).toBe("running")
      yield* Effect.provideService(flags.replaceTargeting(projectId, "flag", body), CurrentActor, { type: "user", userId: "u1", email: "a@example.com" })
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "paused", pausedBy: "targetingChanged" })
      const refused = yield* Effect.flip(plans.resume(projectId, "flag", plan.id, {}))
      expect(refused._tag).toBe("ResourceConflict")
      expect(refused.message).toContain("resume with { \"confirm\": true }")
      expect(yield* plans.resume(projectId, "flag", plan.id, { confirm: true })).toMatchObject({ status: "running", pausedBy: null })
    })))

  it.effect("harm found by the guardrails rolls the plan back to weight 0 (or pauses it), with the figures; resuming restarts from the first step", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const projectId = yield* givenRule
      const guardrails = [{ key: "errors", event: "error", kind: "conversion" as const, goal: "decrease" as const, role: "guardrail" as const }]
      const plan = yield* plans.create(projectId, "flag", input({ guardrails, onHarm: "rollback" }))
      yield* plans.start(projectId, "flag", plan.id)
      const harmed: GuardrailCheck = { outcome: "harmed", minimumUnits: 100, guardrails: [] }
      const ok: GuardrailCheck = { ...harmed, outcome: "ok" }
      let verdict = ok
      const withGuard = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.provide(self, Layer.succeed(Guardrails, { check: () => Effect.sync(() => verdict) }))
      expect(yield* withGuard(step())).toEqual(["advanced"])
      // Between steps the guardrails are checked every minute.
      yield* TestClock.adjust("30 seconds")
      expect(yield* withGuard(step())).toEqual([])
      verdict = harmed
      yield* TestClock.adjust("31 seconds")
      expect(yield* withGuard(step())).toEqual(["harmed"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 0], ["off", 100_000]])
      expect(yield* plans.get(projectId, "flag", plan.id)).toMatchObject({ status: "harmed", currentStep: null, harm: { action: "rolledBack", weight: 10_000, check: harmed } })
      verdict = ok
      yield* plans.resume(projectId, "flag", plan.id, {})
      expect(yield* withGuard(step())).toEqual(["advanced"])
      expect(yield* ruleWeights(projectId)).toEqual([["on", 10_000], ["off", 90_000]])
      expect(yield* planEvents(projectId)).toEqual(["release_plan.started", "release_plan.advanced", "release_plan.harmed", "release_plan.advanced"])
      // The harm's entry and the rollback's targeting write are the plan's, started here by the operator.
      const planActor = { type: "releasePlan", id: plan.id, startedBy: { type: "cli" } }
      expect((yield* planAudit(projectId)).filter((e) => e.action === "release_plan.harmed").map((e) => e.actor)).toEqual([planActor])
      const rollback = (yield* (yield* Audit).list(projectId, { resourceType: "flag" })).data.filter((e) => e.actor.type === "releasePlan")
      expect(rollback.map((e) => e.actor)).toEqual([planActor, planActor, planActor])
    })))

  it.effect("deleting a plan deletes its guardrails' per-unit rows of every run (not another plan's, whatever its id looks like)", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const units = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const projectId = yield* givenRule
      const plan = yield* plans.create(projectId, "flag", input())
      const started = yield* plans.start(projectId, "flag", plan.id)
      yield* plans.cancel(projectId, "flag", plan.id)
      // Two runs of the plan (its start, a later harm), and analyses whose ids only look alike.
      const runs = [planAnalysisId(started), planAnalysisId({ ...started, harm: { at: new Date(day + 60_000).toISOString(), action: "paused", weight: 0, check: { outcome: "harmed", minimumUnits: 100, guardrails: [] } } })]
      const others = [`plan:${plan.id}0@${started.startedAt}`, `plan:${plan.id.replace(/-/g, "_")}@x`, `plan:${plan.id}`]
      for (const id of [...runs, ...others]) {
        yield* ingestion.commit({
          exposures: [{ experimentId: id, unit: "u1", variationKey: "on", at: day }, { experimentId: id, unit: "u2", variationKey: "off", at: day }],
          events: [{ experimentId: id, metricKey: "errors", unit: "u1", at: day + 1_000, value: 1, windowMs: null, preWindowMs: 0 }]
        })
        expect((yield* units.units(id)).length).toBe(2)
      }
      yield* plans.remove(projectId, "flag", plan.id)
      for (const id of runs) {
        expect(yield* units.units(id)).toEqual([])
        expect(yield* units.metricRows(id)).toEqual([])
        expect(yield* units.analysisTotals(id)).toEqual({ variations: [], metrics: [] })
      }
      for (const id of others) {
        expect((yield* units.units(id)).length).toBe(2)
        expect((yield* units.analysisTotals(id)).variations.length).toBe(2)
        yield* units.removeExperiment(id)
      }
    })))

  it.effect("deleting the flag: refused (409) while a plan holds it, nothing removed; otherwise its plans and their per-unit rows go with it, audited", () =>
    atDay((day) => Effect.gen(function* () {
      const plans = yield* ReleasePlans
      const flags = yield* Flags
      const units = yield* ExperimentUnitRepository
      const ingestion = yield* Ingestion
      const projectId = yield* givenRule
      const done = yield* plans.create(projectId, "flag", input())
      const started = yield* plans.start(projectId, "flag", done.id)
      const refused = yield* Effect.flip(flags.remove(projectId, "flag"))
      expect(refused).toMatchObject({
        _tag: "ResourceConflict",
        message: `Flag 'flag' has release plan '${done.id}' running in environment 'production'; cancel it before deleting the flag`
      })
      expect((yield* flags.get(projectId, "flag")).key).toBe("flag")
      expect((yield* plans.list(projectId, "flag")).map((p) => p.id)).toEqual([done.id])
      yield* plans.cancel(projectId, "flag", done.id)
      const draft = yield* plans.create(projectId, "flag", input())
      yield* ingestion.commit({ exposures: [{ experimentId: planAnalysisId(started), unit: "u1", variationKey: "on", at: day }], events: [] })
      yield* flags.remove(projectId, "flag")
      expect(yield* units.units(planAnalysisId(started))).toEqual([])
      // A flag made again under the key starts with no plans of the one deleted.
      yield* flags.create(projectId, booleanFlag("flag"))
      expect(yield* plans.list(projectId, "flag")).toEqual([])
      const deleted = (yield* planAudit(projectId)).filter((e) => e.action === "release_plan.deleted")
      expect(deleted.map((e) => e.resource)).toEqual([done.id, draft.id].map((key) => ({ type: "release_plan", key })))
    })))

}
