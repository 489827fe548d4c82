import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { CreateExperimentInput, Experiment } from "../../src/domain/experiments/Experiment.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { ExperimentRepository } from "../../src/ports/ExperimentRepository.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Experiments } from "../../src/services/experiments/Experiments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { type Contract, failureTag, givenFlag } from "./Backend.js"

/**
 * Experiments: the repository's round trip, and the use case over it (the rule it measures, its
 * life cycle, its audit entries and webhook events) on every backend. A refused call changes nothing.
 */

/** The flag's production targeting: a beta rule serving `on`, then rule `half` splitting 50/50. */
export const givenRollout = Effect.gen(function* () {
  const { projectId } = yield* givenFlag("production", "staging")
  yield* (yield* Flags).replaceTargeting(projectId, "flag", {
    environment: "production",
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [
      { id: "beta", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "on" },
      { id: "half", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }
    ]
  })
  return projectId
})

export const input = (overrides: Partial<CreateExperimentInput> = {}): CreateExperimentInput => ({
  key: "exp",
  flagKey: "flag",
  environment: "production",
  ruleId: "half",
  controlVariationKey: "off",
  metrics: [{ key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }],
  ...overrides
})

const stored = (key: string, overrides: Partial<Experiment> = {}): Experiment => ({
  id: `e-${key}`,
  key,
  name: key,
  flagKey: "flag",
  environment: "production",
  ruleId: "half",
  controlVariationKey: "off",
  metrics: [{ key: "buys", event: "purchase", kind: "mean", goal: "increase", role: "primary", windowHours: 24 }],
  analysis: { method: "bayesian", alpha: 0.1, cuped: false, preWindowDays: 0, plannedUnits: 500 },
  status: "draft",
  startedAt: null,
  stoppedAt: null,
  createdAt: "2026-12-01T00:00:00.000Z",
  updatedAt: "2026-12-01T00:00:00.000Z",
  ...overrides
})

const eventTypes = (projectId: string) =>
  Effect.map(Effect.flatMap(EventOutbox, (outbox) => outbox.list(projectId)), (entries) =>
    entries.map((entry) => entry.event.type).filter((type) => type.startsWith("experiment.")))

const auditActions = (projectId: string) =>
  Effect.map(Effect.flatMap(Audit, (audit) => audit.list(projectId, { resourceType: "experiment" })), (page) =>
    page.data.map((entry) => entry.action).reverse())

export const experimentContract: Contract = (it) => {
  it.effect("the repository round-trips an experiment, lists in creation order, keeps id and creation time on update", () =>
    Effect.gen(function* () {
      const repo = yield* ExperimentRepository
      const { projectId } = yield* givenFlag("production")
      const first = stored("a", { hypothesis: "Ünïcode ✓" })
      yield* repo.insert(projectId, first)
      yield* repo.insert(projectId, stored("b", { environment: "staging" }))
      expect(yield* failureTag(repo.insert(projectId, stored("a")))).toBe("DuplicateKey")
      expect(Option.getOrThrow(yield* repo.get(projectId, "a"))).toEqual(first)
      expect((yield* repo.list(projectId)).map((e) => e.key)).toEqual(["a", "b"])
      expect(yield* repo.list("no-such-project")).toEqual([])

      const running = { ...first, id: "other", createdAt: "2030-01-01T00:00:00.000Z", status: "running" as const, startedAt: "2026-12-02T00:00:00.000Z" }
      yield* repo.update(projectId, running)
      expect(Option.getOrThrow(yield* repo.get(projectId, "a"))).toEqual({ ...running, id: first.id, createdAt: first.createdAt })
      expect((yield* repo.listRunning(projectId)).map((e) => e.key)).toEqual(["a"])
      expect(yield* repo.listRunning(projectId, "staging")).toEqual([])
      expect(yield* failureTag(repo.update(projectId, stored("missing")))).toBe("NotFound")

      yield* repo.remove(projectId, "a")
      expect(yield* repo.get(projectId, "a")).toEqual(Option.none())
      expect(yield* failureTag(repo.remove(projectId, "a"))).toBe("NotFound")
    }))

  it.effect("create makes a draft with the analysis defaults; a key taken is a conflict", () =>
    Effect.gen(function* () {
      const experiments = yield* Experiments
      const projectId = yield* givenRollout
      const made = yield* experiments.create(projectId, input({ analysis: { alpha: 0.01 } }))
      expect(made).toMatchObject({
        key: "exp",
        name: "exp",
        status: "draft",
        startedAt: null,
        stoppedAt: null,
        analysis: { method: "sequential", alpha: 0.01, cuped: true, preWindowDays: 7, plannedUnits: 10_000 }
      })
      expect(yield* experiments.get(projectId, "exp")).toEqual(made)
      expect(yield* failureTag(experiments.create(projectId, input()))).toBe("ResourceConflict")
      expect(yield* auditActions(projectId)).toEqual(["experiment.created"])
    }))

  it.effect("create refuses a rule that is missing, serves one variation or not the control, and metric keys named twice", () =>
    Effect.gen(function* () {
      const experiments = yield* Experiments
      const projectId = yield* givenRollout
      const problems = (body: CreateExperimentInput) =>
        Effect.map(Effect.flip(experiments.create(projectId, body)), (error) => (error._tag === "InvalidRequest" ? error.details : error._tag))
      expect(yield* problems(input({ ruleId: "nope" }))).toEqual([
        { path: "ruleId", message: "flag 'flag' has no rule 'nope' in environment 'production'" }
      ])
      expect(yield* problems(input({ ruleId: "beta" }))).toEqual([
        { path: "ruleId", message: "rule 'beta' serves one variation; an experiment needs a rule with a percentage rollout" }
      ])
      // The rule exists in production only.
      expect(yield* problems(input({ environment: "staging" }))).toEqual([
        { path: "ruleId", message: "flag 'flag' has no rule 'half' in environment 'staging'" }
      ])
      expect(yield* problems(input({ controlVariationKey: "maybe" }))).toEqual([
        { path: "controlVariationKey", message: "flag 'flag' has no variation 'maybe'" }
      ])
      const twice = input({ metrics: [...input().metrics, { key: "buys", event: "other", kind: "mean", goal: "decrease", role: "guardrail" }] })
      expect(yield* problems(twice)).toEqual([{ path: "metrics[1].key", message: "'buys' is already the key of another metric" }])
      expect(yield* problems(input({ flagKey: "ghost" }))).toBe("ResourceNotFound")
      expect(yield* problems(input({ environment: "ghost" }))).toBe("ResourceNotFound")
      expect(yield* experiments.list(projectId)).toEqual([])
      expect(yield* auditActions(projectId)).toEqual([])
    }))

  it.effect("start, stop: running then stopped, stamped, audited, with their webhook events; each only once", () =>
    Effect.gen(function* () {
      const experiments = yield* Experiments
      const projectId = yield* givenRollout
      yield* experiments.create(projectId, input())
      const started = yield* experiments.start(projectId, "exp")
      expect(started.status).toBe("running")
      expect(started.startedAt).not.toBeNull()
      expect(yield* failureTag(experiments.start(projectId, "exp"))).toBe("ResourceConflict")
      // A running experiment is not deleted; its flag, rule and metrics stay; its name may change.
      expect(yield* failureTag(experiments.remove(projectId, "exp"))).toBe("ResourceConflict")
      expect(yield* failureTag(experiments.patch(projectId, "exp", { ruleId: "beta" }))).toBe("ResourceConflict")
      expect(yield* failureTag(experiments.patch(projectId, "exp", { metrics: [] }))).toBe("ResourceConflict")
      const renamed = yield* experiments.patch(projectId, "exp", { name: "Checkout", ruleId: "half", analysis: { plannedUnits: 2000 } })
      expect(renamed).toMatchObject({ name: "Checkout", status: "running", analysis: { method: "sequential", plannedUnits: 2000 } })
      // A new control must still be a variation of the flag.
      const control = yield* Effect.flip(experiments.patch(projectId, "exp", { controlVariationKey: "maybe" }))
      expect(control).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "controlVariationKey", message: "flag 'flag' has no variation 'maybe'" }] })
      expect((yield* experiments.get(projectId, "exp")).controlVariationKey).toBe("off")

      // A decision naming a variation the flag lacks changes nothing.
      expect(yield* failureTag(experiments.stop(projectId, "exp", { decision: { variationKey: "maybe", note: "" } }))).toBe("InvalidRequest")
      expect((yield* experiments.get(projectId, "exp")).status).toBe("running")
      const stopped = yield* experiments.stop(projectId, "exp", { decision: { variationKey: "on", note: "Ship it" } })
      expect(stopped).toMatchObject({ status: "stopped", startedAt: started.startedAt, decision: { variationKey: "on", note: "Ship it" } })
      expect(stopped.stoppedAt).not.toBeNull()
      expect(yield* failureTag(experiments.stop(projectId, "exp", {}))).toBe("ResourceConflict")
      expect(yield* failureTag(experiments.start(projectId, "exp"))).toBe("ResourceConflict")

      expect(yield* eventTypes(projectId)).toEqual(["experiment.started", "experiment.stopped"])
      const [event] = (yield* (yield* EventOutbox).list(projectId)).filter((entry) => entry.event.type === "experiment.stopped")
      expect(event?.event.data).toEqual({ experiment: stopped })
      expect(yield* auditActions(projectId)).toEqual(["experiment.created", "experiment.started", "experiment.updated", "experiment.stopped"])

      yield* experiments.remove(projectId, "exp")
      expect(yield* failureTag(experiments.get(projectId, "exp"))).toBe("ResourceNotFound")
      expect((yield* auditActions(projectId)).at(-1)).toBe("experiment.deleted")
    }))

  it.effect("a draft's patch is checked as a create; one rule is measured by one running experiment at a time", () =>
    Effect.gen(function* () {
      const experiments = yield* Experiments
      const projectId = yield* givenRollout
      yield* experiments.create(projectId, input())
      yield* experiments.create(projectId, input({ key: "rival" }))
      expect(yield* failureTag(experiments.patch(projectId, "rival", { ruleId: "beta" }))).toBe("InvalidRequest")
      const patched = yield* experiments.patch(projectId, "rival", { hypothesis: "More buys", environment: "production" })
      expect(patched.hypothesis).toBe("More buys")
      expect((yield* experiments.patch(projectId, "rival", { hypothesis: null })).hypothesis).toBeUndefined()
      yield* experiments.start(projectId, "exp")
      expect(yield* failureTag(experiments.start(projectId, "rival"))).toBe("ResourceConflict")
      expect((yield* experiments.get(projectId, "rival")).status).toBe("draft")
      yield* experiments.stop(projectId, "exp", {})
      expect((yield* experiments.start(projectId, "rival")).status).toBe("running")
    }))

  it.effect("a draft whose rule lost its rollout cannot start", () =>
    Effect.gen(function* () {
      const experiments = yield* Experiments
      const projectId = yield* givenRollout
      yield* experiments.create(projectId, input())
      yield* (yield* Flags).replaceTargeting(projectId, "flag", {
        environment: "production",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules: [{ id: "half", conditions: [], variationKey: "on" }]
      })
      const error = yield* Effect.flip(experiments.start(projectId, "exp"))
      expect(error).toMatchObject({
        _tag: "ResourceConflict",
        message: "Experiment 'exp' cannot start: rule 'half' serves one variation; an experiment needs a rule with a percentage rollout"
      })
      expect((yield* experiments.get(projectId, "exp")).status).toBe("draft")
      expect(yield* eventTypes(projectId)).toEqual([])
    }))

  it.effect("deleting the flag: refused (409) while a running experiment measures it, nothing removed; a stopped or draft one lets it go and keeps its record", () =>
    Effect.gen(function* () {
      const experiments = yield* Experiments
      const flags = yield* Flags
      const projectId = yield* givenRollout
      yield* experiments.create(projectId, input())
      yield* experiments.create(projectId, input({ key: "later" }))
      yield* experiments.start(projectId, "exp")
      const refused = yield* Effect.flip(flags.remove(projectId, "flag"))
      expect(refused).toMatchObject({
        _tag: "ResourceConflict",
        message: "Flag 'flag' is measured by experiment 'exp' running in environment 'production'; stop it before deleting the flag"
      })
      expect((yield* flags.get(projectId, "flag")).key).toBe("flag")
      expect((yield* experiments.get(projectId, "exp")).status).toBe("running")

      yield* experiments.stop(projectId, "exp", {})
      yield* flags.remove(projectId, "flag")
      expect(yield* failureTag(flags.get(projectId, "flag"))).toBe("ResourceNotFound")
      expect((yield* experiments.get(projectId, "exp")).status).toBe("stopped")
      // A draft whose flag is gone cannot start.
      expect(yield* failureTag(experiments.start(projectId, "later"))).toBe("ResourceNotFound")
      expect((yield* experiments.get(projectId, "later")).status).toBe("draft")
    }))
}
