/**
 * The release plans of a change request (domain/changes/PlanChange.ts), checked when it is opened
 * or its plans updated: each exists (404), is a plan of the request's environment (400), may take
 * the action in its status, and for a start could start now (409, as the start itself would
 * answer: StartCheck.ts); then each is pinned as it is now (`baseVersion`, `plan`). And applied, in
 * the apply's transaction after its targeting changes, each through its own use case.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { duplicatePlans, type PlanChange, type PlanChangeInput } from "../../domain/changes/PlanChange.js"
import { InvalidRequest, type Problem, ResourceConflict } from "../../domain/Errors.js"
import { flagNotFound, releasePlanNotFound } from "../../domain/NotFound.js"
import * as T from "../../domain/releaseplans/Transitions.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import { ReleasePlans } from "../releaseplans/ReleasePlans.js"
import { startRefusal } from "../releaseplans/StartCheck.js"

export const checker = Effect.gen(function* () {
  const plans = yield* ReleasePlanRepository
  const flags = yield* FlagRepository

  return (projectId: string, environment: string, inputs: ReadonlyArray<PlanChangeInput>) =>
    Effect.gen(function* () {
      const problems: Array<Problem> = [...duplicatePlans(inputs)]
      const pinned: Array<PlanChange> = []
      for (const [index, input] of inputs.entries()) {
        const flag = yield* flags.get(projectId, input.flagKey)
        if (Option.isNone(flag)) return yield* flagNotFound(projectId, input.flagKey)
        const found = yield* plans.get(projectId, input.flagKey, input.planId)
        if (Option.isNone(found)) return yield* releasePlanNotFound(input.flagKey, input.planId)
        const plan = found.value
        if (plan.environment !== environment) {
          // The plan's own environment goes unnamed: the caller may not see that environment.
          problems.push({ path: `releasePlans[${index}].planId`, message: `is not a plan of '${environment}', the environment of the change request` })
          continue
        }
        const refusal = T.refusal(input.action, plan)
        if (refusal !== null) return yield* new ResourceConflict({ message: refusal })
        if (input.action === "start") {
          const refused = yield* startRefusal(projectId, plan, flag.value)
          if (Option.isSome(refused)) return yield* refused.value
        }
        pinned.push({ flagKey: input.flagKey, planId: input.planId, action: input.action, baseVersion: plan.version, plan })
      }
      if (problems.length > 0) return yield* new InvalidRequest({ message: "Invalid change request", details: problems })
      return pinned
    }).pipe(Effect.provideService(ReleasePlanRepository, plans))
})

/**
 * Starts or resumes each plan of an approved request as the applier: its pinned version checked
 * again in its write (a plan edited in between is the same 409 as one found moved on), its audit
 * entry naming the request, never refused for protection (the request is the approval).
 */
export const applier = Effect.map(ReleasePlans, (plans) =>
  (projectId: string, request: { readonly id: string; readonly releasePlans: ReadonlyArray<PlanChange> }) =>
    Effect.forEach(request.releasePlans, (change) => {
      const approved = { changeRequestId: request.id, ifMatch: change.baseVersion }
      return (change.action === "start"
        ? plans.start(projectId, change.flagKey, change.planId, approved)
        : plans.resume(projectId, change.flagKey, change.planId, {}, approved)
      ).pipe(Effect.catchTags({ ChangeRequestRequired: Effect.die }))
    }, { discard: true }))
