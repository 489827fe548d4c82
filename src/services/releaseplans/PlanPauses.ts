/**
 * A person's direct change to a flag's targeting in an environment pauses the plans running there
 * (`pausedBy: "targetingChanged"`): a plan must not overwrite by its next step what a person just
 * decided, nor go on measuring a rule they changed under it. Resuming then needs their
 * confirmation (ReleasePlans.resume). Keys, schedules made by keys and the plans' own steps are
 * automation and pause nothing (the same line the protected environments draw: isPersonsHand).
 *
 * Runs inside the targeting write's transaction, so the pause commits with the change or not at all.
 */
import * as Effect from "effect/Effect"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { isPersonsHand } from "../../domain/changes/Protection.js"
import * as T from "../../domain/releaseplans/Transitions.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import type * as Writes from "../shared/Writes.js"
import { GuardrailCheckEvery } from "./PlanSettings.js"
import { planEntry, replacePlan } from "./PlanWrite.js"

export interface Paused {
  readonly audit: ReadonlyArray<Writes.AuditDraft>
  readonly events: ReadonlyArray<Writes.ReleasePlanEventDraft>
}

/** Built once by the targeting use case; pauses the running plans of the flag in the environment when a person writes. */
export const pauser = Effect.map(Effect.all([ReleasePlanRepository, GuardrailCheckEvery]), ([repo, checkEvery]) =>
  (projectId: string, flagKey: string, environment: string, nowMillis: number) =>
    Effect.gen(function* () {
      if (!isPersonsHand(yield* CurrentActor)) return { audit: [], events: [] } satisfies Paused
      const running = yield* repo.listIn(projectId, ["running"], { environment, flagKey })
      const audit: Array<Writes.AuditDraft> = []
      const events: Array<Writes.ReleasePlanEventDraft> = []
      for (const before of running) {
        const after = T.paused(before, "targetingChanged", nowMillis)
        // A plan changed meanwhile by its stepper is serialized behind this write's project lock:
        // the version read here is current.
        if (yield* replacePlan(projectId, before, after, nowMillis)) {
          audit.push(planEntry("release_plan.paused", before, after))
          events.push({ type: "release_plan.paused", releasePlan: after })
        }
      }
      return { audit, events } satisfies Paused
    }).pipe(Effect.provideService(ReleasePlanRepository, repo), Effect.provideService(GuardrailCheckEvery, checkEvery)))
