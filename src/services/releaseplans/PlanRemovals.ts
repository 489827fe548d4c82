/**
 * A flag's release plans go with the flag: a flag re-created under the same key must not inherit
 * a deleted one's drafts and history, nor a stepper go on writing to a flag that is gone. A plan
 * still holding an environment (running, paused or harmed) refuses the deletion instead: a ramp in
 * flight is cancelled by a person who sees it, not dropped as a side effect.
 *
 * Runs inside the flag deletion's transaction, so the plans go with the flag or not at all.
 */
import * as Effect from "effect/Effect"
import { ResourceConflict } from "../../domain/Errors.js"
import { planAnalysisPrefix } from "../../domain/releaseplans/PlanAnalysis.js"
import * as T from "../../domain/releaseplans/Transitions.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import type * as Writes from "../shared/Writes.js"
import { planEntry } from "./PlanWrite.js"

/** Built once by the flag use case; removes the flag's plans (and their guardrails' unit rows), or refuses while one holds the flag. */
export const remover = Effect.map(Effect.all([ReleasePlanRepository, ExperimentUnitRepository]), ([repo, units]) =>
  (projectId: string, flagKey: string) =>
    Effect.gen(function* () {
      const plans = yield* repo.list(projectId, flagKey)
      const holding = plans.find((plan) => T.HOLDING.includes(plan.status))
      if (holding !== undefined) {
        return yield* new ResourceConflict({
          message: `Flag '${flagKey}' has release plan '${holding.id}' ${holding.status} in environment '${holding.environment}'; cancel it before deleting the flag`
        })
      }
      const audit: Array<Writes.AuditDraft> = []
      for (const plan of plans) {
        yield* repo.remove(projectId, flagKey, plan.id)
        yield* units.removeAnalyses(planAnalysisPrefix(plan))
        audit.push(planEntry("release_plan.deleted", plan, null))
      }
      return audit
    }))
