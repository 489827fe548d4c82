import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { ReleasePlan } from "../../src/domain/releaseplans/ReleasePlan.js"
import { storedPlan } from "../fixtures/ReleasePlans.js"
import { ReleasePlanRepository } from "../../src/ports/ReleasePlanRepository.js"
import { Transactor } from "../../src/ports/Transactor.js"
import { type Contract, givenFlag } from "./Backend.js"

/**
 * The release plan repository on every backend: the round trip, the compare-and-set on the version
 * (and the lease), and leases that two steppers never hold at once.
 */

const harmedCheck = {
  outcome: "harmed" as const,
  minimumUnits: 100,
  guardrails: [{
    metricKey: "errors",
    goal: "decrease" as const,
    treatment: { units: 500, mean: 0.2 },
    control: { units: 9_500, mean: 0.1 },
    absolute: { estimate: 0.1, ci: [0.05, 0.15] as const },
    relative: { estimate: 1, ci: [0.5, 1.5] as const },
    pValue: 0.0001,
    alpha: 0.05,
    notEnoughData: false,
    harmed: true
  }]
}

const at = (minute: number) => `2026-12-01T00:${String(minute).padStart(2, "0")}:00.000Z`

export const releasePlanRepositoryContract: Contract = (it) => {
  it.effect("round-trips a plan, lists a flag's plans in creation order, filters by status, environment and flag", () =>
    Effect.gen(function* () {
      const repo = yield* ReleasePlanRepository
      const { projectId } = yield* givenFlag("production", "staging")
      const first = storedPlan("rp-a", {
        status: "harmed",
        currentStep: 1,
        harm: { at: at(3), action: "paused", weight: 5_000, check: harmedCheck },
        baseline: [{ variationKey: "off", weight: 100_000 }],
        startedBy: { type: "user", userId: "u1", email: "a@example.com" }
      })
      yield* repo.insert(projectId, first, null)
      yield* repo.insert(projectId, storedPlan("rp-b", { environment: "staging", status: "running" }), at(1))
      yield* repo.insert(projectId, storedPlan("rp-c", { flagKey: "other" }), null)
      expect(Option.getOrThrow(yield* repo.get(projectId, "flag", "rp-a"))).toEqual(first)
      expect(yield* repo.get(projectId, "other", "rp-a")).toEqual(Option.none())
      expect(yield* repo.get("no-such-project", "flag", "rp-a")).toEqual(Option.none())
      expect((yield* repo.list(projectId, "flag")).map((p) => p.id)).toEqual(["rp-a", "rp-b"])
      expect((yield* repo.listIn(projectId, ["running", "harmed"])).map((p) => p.id)).toEqual(["rp-a", "rp-b"])
      expect((yield* repo.listIn(projectId, ["running", "harmed"], { environment: "staging" })).map((p) => p.id)).toEqual(["rp-b"])
      expect((yield* repo.listIn(projectId, ["draft"], { flagKey: "other" })).map((p) => p.id)).toEqual(["rp-c"])
      expect(yield* repo.listIn(projectId, [])).toEqual([])
      expect(yield* repo.remove(projectId, "flag", "rp-a")).toBe(true)
      expect(yield* repo.remove(projectId, "flag", "rp-a")).toBe(false)
      expect((yield* repo.list(projectId, "flag")).map((p) => p.id)).toEqual(["rp-b"])
    }))

  it.effect("replace is a compare-and-set on the version: a stale version changes nothing", () =>
    Effect.gen(function* () {
      const repo = yield* ReleasePlanRepository
      const { projectId } = yield* givenFlag("production")
      const plan = storedPlan("rp-cas")
      yield* repo.insert(projectId, plan, null)
      const running = { ...plan, status: "running" as const, version: 2 }
      expect(yield* repo.replace(projectId, running, { expectedVersion: 1, dueAt: at(0) })).toBe(true)
      expect(yield* repo.replace(projectId, { ...plan, status: "cancelled", version: 2 }, { expectedVersion: 1, dueAt: null })).toBe(false)
      expect(Option.getOrThrow(yield* repo.get(projectId, "flag", "rp-cas"))).toEqual(running)
      expect(yield* repo.replace(projectId, storedPlan("rp-none"), { expectedVersion: 1, dueAt: null })).toBe(false)
    }))

  it.effect("claimDue leases due plans earliest first, once until the lease expires; replace with an owner needs the lease", () =>
    Effect.gen(function* () {
      const repo = yield* ReleasePlanRepository
      const { projectId } = yield* givenFlag("production")
      yield* repo.insert(projectId, storedPlan("rp-late", { status: "running" }), at(5))
      yield* repo.insert(projectId, storedPlan("rp-early", { status: "running" }), at(2))
      yield* repo.insert(projectId, storedPlan("rp-never"), null)
      yield* repo.insert(projectId, storedPlan("rp-future", { status: "running" }), at(50))
      const ours = (claimed: ReadonlyArray<{ readonly projectId: string; readonly plan: ReleasePlan }>) =>
        claimed.filter((c) => c.projectId === projectId).map((c) => c.plan.id)
      const first = yield* repo.claimDue({ now: at(10), owner: "one", leaseUntil: at(20), limit: 100 })
      expect(ours(first)).toEqual(["rp-early", "rp-late"])
      expect(ours(yield* repo.claimDue({ now: at(11), owner: "two", leaseUntil: at(21), limit: 100 }))).toEqual([])
      // Another owner cannot settle a plan it does not hold; the holder can, which releases it.
      const early = first.find((c) => c.plan.id === "rp-early")!.plan
      expect(yield* repo.replace(projectId, { ...early, version: 2 }, { expectedVersion: 1, dueAt: at(12), owner: "two" })).toBe(false)
      expect(yield* repo.replace(projectId, { ...early, version: 2 }, { expectedVersion: 1, dueAt: at(12), owner: "one" })).toBe(true)
      expect(ours(yield* repo.claimDue({ now: at(12), owner: "two", leaseUntil: at(22), limit: 100 }))).toEqual(["rp-early"])
      // rp-late's lease (one's) expires at 20: then another owner may claim it.
      expect(ours(yield* repo.claimDue({ now: at(20), owner: "three", leaseUntil: at(30), limit: 100 }))).toEqual(["rp-late"])
    }))

  it.effect("a replace rolled back with its transaction leaves the plan as it was", () =>
    Effect.gen(function* () {
      const repo = yield* ReleasePlanRepository
      const tx = yield* Transactor
      const { projectId } = yield* givenFlag("production")
      const plan = storedPlan("rp-tx")
      yield* repo.insert(projectId, plan, null)
      const attempt = repo.replace(projectId, { ...plan, status: "running", version: 2 }, { expectedVersion: 1, dueAt: at(1) }).pipe(
        Effect.zipRight(Effect.fail("boom" as const)),
        tx.withTransaction
      )
      expect(yield* Effect.flip(attempt)).toBe("boom")
      expect(Option.getOrThrow(yield* repo.get(projectId, "flag", "rp-tx"))).toEqual(plan)
    }))
}
