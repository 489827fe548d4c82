import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import type { ReleasePlan } from "../../src/domain/releaseplans/ReleasePlan.js"
import { planAnalysisId } from "../../src/domain/releaseplans/PlanAnalysis.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { ReleasePlanRepository } from "../../src/ports/ReleasePlanRepository.js"
import { Exposures } from "../../src/services/experiments/Exposures.js"
import { Track } from "../../src/services/experiments/Track.js"
import { Guardrails } from "../../src/services/releaseplans/Guardrails.js"
import { storedPlan } from "../fixtures/ReleasePlans.js"
import type { Contract } from "./Backend.js"
import { givenRollout } from "./Experiments.contract.js"

/**
 * Release plans' guardrails on every backend, through the use cases SDKs reach: a running plan's
 * rule is measured (exposures and its guardrails' events kept, a draft's not), its units stored by
 * arm under its run's analysis id, and the check on the experiment engine finds a tripled error
 * rate harmful and an equal one not; after harm the resumed run starts on fresh units.
 */

const at = (ms: number) => new Date(ms).toISOString()

/** Units 0..n-1 of a plan, half served `on` (the treatment) and half `off`; which of them erred. */
const traffic = (prefix: string, n: number, errorRate: { on: number; off: number }, now: number) => {
  const exposures = Array.from({ length: n }, (_, i) => ({
    flagKey: "flag",
    ruleId: "half",
    variationKey: i % 2 === 0 ? "on" : "off",
    unit: `${prefix}-${i}`,
    timestamp: at(now)
  }))
  // Deterministic: within each arm the first share of units erred.
  const events = exposures.flatMap((e, i) => {
    const rank = Math.floor(i / 2) / (n / 2)
    return rank < errorRate[e.variationKey as "on" | "off"] ? [{ event: "error", unit: e.unit, timestamp: at(now + 1000) }] : []
  })
  return { exposures, events }
}

/** Sends the traffic as an SDK would, 1,000 items a request; answers what was kept and counted in all. */
const sendAll = (principal: Principal, sent: ReturnType<typeof traffic>, exposures: Exposures["Type"], track: Track["Type"]) =>
  Effect.gen(function* () {
    const kept = { accepted: 0, dropped: 0 }
    const counted = { accepted: 0, dropped: 0 }
    for (let i = 0; i < sent.exposures.length; i += 1000) {
      const answer = yield* exposures.record(principal, { environment: "production", exposures: sent.exposures.slice(i, i + 1000) })
      kept.accepted += answer.accepted
      kept.dropped += answer.dropped
    }
    for (let i = 0; i < sent.events.length; i += 1000) {
      const answer = yield* track.record(principal, { environment: "production", events: sent.events.slice(i, i + 1000) })
      counted.accepted += answer.accepted
      counted.dropped += answer.dropped
    }
    return { kept, counted }
  })

export const guardrailsContract: Contract = (it) => {
  it.effect("a running plan's units are kept by arm and its guardrails find a tripled error rate harmful, an equal one not", () =>
    Effect.gen(function* () {
      const projectId = yield* givenRollout
      const plans = yield* ReleasePlanRepository
      const exposures = yield* Exposures
      const track = yield* Track
      const guardrails = yield* Guardrails
      const principal: Principal = { _tag: "ProjectServer", keyId: `k-${projectId}`, projectId, environment: null }
      const now = Date.now()
      const send = (sent: ReturnType<typeof traffic>) => sendAll(principal, sent, exposures, track)

      // A draft plan measures nothing.
      const draft = storedPlan(`plan-${projectId}-draft`)
      yield* plans.insert(projectId, draft, null)
      expect((yield* send(traffic("d", 10, { on: 1, off: 1 }, now))).kept).toMatchObject({ accepted: 0, dropped: 10 })

      // Running: 1,000 units an arm, errors 30% under `on` against 10% under `off`.
      const running: ReleasePlan = storedPlan(`plan-${projectId}`, { status: "running", startedAt: at(now - 60_000), currentStep: 0 })
      yield* plans.insert(projectId, running, null)
      const { counted, kept } = yield* send(traffic("u", 2_000, { on: 0.3, off: 0.1 }, now))
      expect(kept).toEqual({ accepted: 2_000, dropped: 0 })
      expect(counted).toEqual({ accepted: 400, dropped: 0 })
      const stored = yield* (yield* ExperimentUnitRepository).units(planAnalysisId(running))
      expect(stored.length).toBe(2_000)
      expect(new Set(stored.map((u) => u.variationKey))).toEqual(new Set(["treatment", "control"]))

      const harmed = yield* guardrails.check(projectId, running)
      expect(harmed.outcome).toBe("harmed")
      const [errors] = harmed.guardrails
      expect(errors).toMatchObject({ metricKey: "errors", harmed: true, treatment: { units: 1_000 }, control: { units: 1_000 } })
      expect(errors!.treatment.mean).toBeCloseTo(0.3, 12)
      expect(errors!.control.mean).toBeCloseTo(0.1, 12)
      expect(errors!.relative!.ci![0]).toBeGreaterThan(0)

      // Resumed after the harm: a new run, on fresh units only.
      const resumed: ReleasePlan = {
        ...running,
        harm: { at: at(now + 2000), action: "rolledBack", weight: 5_000, check: harmed }
      }
      expect(planAnalysisId(resumed)).not.toBe(planAnalysisId(running))
      const fresh = yield* guardrails.check(projectId, resumed)
      expect(fresh.outcome).toBe("ok")
      expect(fresh.guardrails[0]).toMatchObject({ notEnoughData: true, treatment: { units: 0 }, control: { units: 0 } })
    }))

  it.effect("an equal error rate in both arms is no harm", () =>
    Effect.gen(function* () {
      const projectId = yield* givenRollout
      const plan = storedPlan(`plan-${projectId}-aa`, { status: "running", startedAt: at(Date.now() - 60_000), currentStep: 0 })
      yield* (yield* ReleasePlanRepository).insert(projectId, plan, null)
      const sent = traffic("aa", 2_000, { on: 0.1, off: 0.1 }, Date.now())
      const principal: Principal = { _tag: "ProjectServer", keyId: `k-${projectId}`, projectId, environment: null }
      yield* sendAll(principal, sent, yield* Exposures, yield* Track)
      const check = yield* (yield* Guardrails).check(projectId, plan)
      expect(check).toMatchObject({ outcome: "ok", guardrails: [{ harmed: false, notEnoughData: false, treatment: { units: 1_000 }, control: { units: 1_000 } }] })
    }))
}
