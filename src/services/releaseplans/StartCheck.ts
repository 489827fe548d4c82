/**
 * Whether a draft can start now: its rule still fits it (the plan's rules, PlanRules.ts, against
 * the flag as it is) and no other plan holds its flag's environment. Asked by the start itself,
 * inside its write, and by a change request that carries the start when it is opened or updated
 * (services/changes/PlanChecks.ts), so a request that could never be applied is refused at once.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Flag } from "../../domain/definitions/Flag.js"
import { ResourceConflict } from "../../domain/Errors.js"
import { planProblems } from "../../domain/releaseplans/PlanRules.js"
import type { ReleasePlan } from "../../domain/releaseplans/ReleasePlan.js"
import * as T from "../../domain/releaseplans/Transitions.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"

/** The 409 a start of `plan` on `flag` would answer now, if any. */
export const startRefusal = (projectId: string, plan: ReleasePlan, flag: Flag) =>
  Effect.gen(function* () {
    const problems = planProblems(plan, flag)
    if (problems.length > 0) {
      return Option.some(new ResourceConflict({ message: `Release plan '${plan.id}' cannot start: ${problems.map((p) => p.message).join("; ")}` }))
    }
    const repo = yield* ReleasePlanRepository
    const rival = (yield* repo.listIn(projectId, T.HOLDING, { environment: plan.environment, flagKey: plan.flagKey })).find((other) => other.id !== plan.id)
    return rival === undefined
      ? Option.none<ResourceConflict>()
      : Option.some(new ResourceConflict({ message: `Release plan '${rival.id}' already ramps flag '${plan.flagKey}' in '${plan.environment}'; cancel it first` }))
  })
