/**
 * A running experiment holds its flag: deleting the flag under it would end the measurement as a
 * side effect, and its results would name a rule that no longer exists. The deletion is refused
 * until someone stops the experiment. Stopped and draft experiments keep their own records and
 * results, and a draft cannot start without its flag.
 *
 * Runs inside the flag deletion's transaction, so an experiment started at the same moment is
 * seen by one of the two writes.
 */
import * as Effect from "effect/Effect"
import { ResourceConflict } from "../../domain/Errors.js"
import { ExperimentRepository } from "../../ports/ExperimentRepository.js"

/** Built once by the flag use case; fails with 409 when a running experiment measures `flagKey`. */
export const refuser = Effect.map(ExperimentRepository, (repo) => (projectId: string, flagKey: string) =>
  Effect.gen(function* () {
    const running = (yield* repo.listRunning(projectId)).find((experiment) => experiment.flagKey === flagKey)
    if (running !== undefined) {
      return yield* new ResourceConflict({
        message: `Flag '${flagKey}' is measured by experiment '${running.key}' running in environment '${running.environment}'; stop it before deleting the flag`
      })
    }
  }))
