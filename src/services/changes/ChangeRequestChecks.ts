/**
 * The changes of a change request checked as the targeting PUT would check each (400 with every
 * problem, paths under `changes[i].targeting`; 404 for an unknown flag or environment), and
 * together (their prerequisites must stay evaluable), with each flag's version and configuration
 * now (`baseVersion`, `before`) and the segments their rules name as they are now (Pins.ts): what
 * opening and updating a request record.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { type Change, type ChangeInput, duplicateFlags, shownConfig } from "../../domain/changes/ChangeRequest.js"
import { graphProblem, projectGraph } from "../../domain/definitions/ValidatePrerequisites.js"
import { InvalidRequest, type Problem } from "../../domain/Errors.js"
import { environmentNotFound } from "../../domain/NotFound.js"
import { storedTargeting, targetingInputOf } from "../../domain/schedules/Schedule.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { Flags } from "../flags/Flags.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Pins from "./Pins.js"

export const checker = Effect.gen(function* () {
  const environments = yield* EnvironmentRepository
  const flagRepo = yield* FlagRepository
  const projects = yield* ProjectRepository
  const flags = yield* Flags
  const { pinSegments } = yield* Pins.pins

  return (projectId: string, environment: string, changes: ReadonlyArray<ChangeInput>) =>
    Effect.gen(function* () {
      const env = yield* environments.get(projectId, environment)
      if (Option.isNone(env)) {
        yield* requireProject(projects, projectId)
        return yield* environmentNotFound(projectId, environment)
      }
      const problems: Array<Problem> = [...duplicateFlags(changes)]
      const checked: Array<Change> = []
      for (const [index, change] of changes.entries()) {
        const at = `changes[${index}].targeting`
        if (change.targeting.environment !== undefined && change.targeting.environment !== environment) {
          problems.push({ path: `${at}.environment`, message: `must be '${environment}', the environment of the change request (or left out)` })
          continue
        }
        const after = storedTargeting(change.targeting)
        const result = yield* Effect.either(flags.validateTargeting(projectId, change.flagKey, targetingInputOf(environment, after)))
        if (Either.isLeft(result)) {
          if (result.left._tag !== "InvalidRequest") return yield* result.left
          problems.push(...result.left.details.map((p) => ({ ...p, path: p.path === "" || p.path === "$" ? at : `${at}.${p.path}` })))
          continue
        }
        checked.push({ flagKey: change.flagKey, baseVersion: result.right.version, before: shownConfig(result.right, environment), after })
      }
      // Each change passed alone; applied together their prerequisites must still be evaluable (the
      // apply would refuse a cycle only after the approvals).
      if (problems.length === 0 && checked.length > 1 && checked.some((c) => (c.after.prerequisites ?? []).length > 0)) {
        const together = graphProblem(
          projectGraph(yield* flagRepo.list(projectId), environment),
          new Map(checked.map((c) => [c.flagKey, (c.after.prerequisites ?? []).map((p) => p.flagKey)]))
        )
        if (together !== undefined) problems.push({ path: "changes", message: `the changes together would leave the flags unevaluable: ${together}` })
      }
      if (problems.length > 0) return yield* new InvalidRequest({ message: "Invalid change request", details: problems })
      return { changes: checked, segments: yield* pinSegments(projectId, checked), requiredApprovals: env.value.requiredApprovals }
    })
})
