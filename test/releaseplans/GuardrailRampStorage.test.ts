/**
 * Simulated ramps through the real pieces below HTTP, on SQLite: at each step the rule's rollout
 * is the plan's step (`applyStep`), units are bucketed by the real evaluator (returning units too,
 * some of which cross into the treatment as the weight grows and are left out), their exposures
 * and error events are sent through the use cases SDKs reach (`Exposures`, `Track`), and the
 * plan's guardrails are checked by the hook the stepper calls (`Guardrails`) after every batch.
 * An A/A ramp runs to its last step unstopped; one whose treatment doubles the error rate is
 * stopped before its third step. One seeded run of each (through SQLite a run takes seconds): the
 * rates over 200 runs of the same ramp are measured on the domain function,
 * test/domain/experiments/GuardrailRamp.property.test.ts.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import type { Rule } from "../../src/domain/definitions/Targeting.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { applyStep } from "../../src/domain/releaseplans/ApplyStep.js"
import { ReleasePlanRepository } from "../../src/ports/ReleasePlanRepository.js"
import { Exposures } from "../../src/services/experiments/Exposures.js"
import { Track } from "../../src/services/experiments/Track.js"
import { Guardrails } from "../../src/services/releaseplans/Guardrails.js"
import { givenRollout } from "../contract/Experiments.contract.js"
import { booleanFlag, snapshot } from "../domain/fixtures.js"
import { seededRandom } from "../domain/experiments/simulation.js"
import { freshStorage } from "../fixtures/databases.js"
import { storedPlan } from "../fixtures/ReleasePlans.js"

const STEPS = [5_000, 25_000, 50_000]
const CHECKS_PER_STEP = 5
const NEW_UNITS_PER_CHECK = 900
const RETURNING_PER_CHECK = 100
const BASE_ERROR_RATE = 0.05
const HALF: Rule = { id: "half", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 0 }, { variationKey: "off", weight: 100_000 }] } }
const at = (ms: number) => new Date(ms).toISOString()

/** One ramp; answers the index of the step in which its guardrail showed harm, or null. */
const ramp = (projectId: string, run: string, treatmentErrorRate: number, seed: number) =>
  Effect.gen(function* () {
    const exposures = yield* Exposures
    const track = yield* Track
    const guardrails = yield* Guardrails
    const random = seededRandom(seed)
    const principal: Principal = { _tag: "ProjectServer", keyId: `k-${run}`, projectId, environment: null }
    const plan = storedPlan(`plan-${run}`, { status: "running", startedAt: at(Date.now() - 60_000), currentStep: 0, baseline: [{ variationKey: "off", weight: 100_000 }] })
    yield* (yield* ReleasePlanRepository).insert(projectId, plan, null)
    const seen: Array<string> = []
    for (let step = 0; step < STEPS.length; step++) {
      const compiled = Evaluate.compile(snapshot([booleanFlag({ rules: [applyStep(HALF, { variationKey: "on", baseline: plan.baseline! }, STEPS[step]!)] })]))
      for (let check = 0; check < CHECKS_PER_STEP; check++) {
        const fresh = Array.from({ length: NEW_UNITS_PER_CHECK }, (_, i) => `${run}-${step}-${check}-${i}`)
        const returning = seen.length === 0 ? [] : Array.from({ length: RETURNING_PER_CHECK }, () => seen[Math.floor(random() * seen.length)]!)
        seen.push(...fresh)
        const now = Date.now()
        const served = [...fresh, ...returning].map((unit) => ({ unit, variationKey: Evaluate.evaluate(compiled, "flag", { key: unit }).variationKey! }))
        const errors = served.filter((s) => random() < (s.variationKey === "on" ? treatmentErrorRate : BASE_ERROR_RATE))
        yield* exposures.record(principal, {
          environment: "production",
          exposures: served.map((s) => ({ flagKey: "flag", ruleId: "half", variationKey: s.variationKey, unit: s.unit, timestamp: at(now) }))
        })
        yield* track.record(principal, { environment: "production", events: errors.map((s) => ({ event: "error", unit: s.unit, timestamp: at(now + 1) })) })
        if ((yield* guardrails.check(projectId, plan)).outcome === "harmed") return step
      }
    }
    return null
  })

layer(freshStorage("sqlite"), { excludeTestServices: true, timeout: "120 seconds" })("ramps through the use cases and the guardrails hook on SQLite", (it) => {
  it.effect("an A/A ramp is not stopped; one doubling the error rate is stopped before its third step", () =>
    Effect.gen(function* () {
      const projectId = yield* givenRollout
      const aa = yield* ramp(projectId, "aa", BASE_ERROR_RATE, 1_001)
      const doubled = yield* ramp(projectId, "x2", 2 * BASE_ERROR_RATE, 2_001)
      console.info(`A/A stopped in step ${aa}; doubled errors stopped in step ${doubled}`)
      expect(aa).toBeNull()
      expect(doubled).not.toBeNull()
      expect(doubled!).toBeLessThan(2)
    }), { timeout: 110_000 })
})
