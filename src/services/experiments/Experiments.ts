import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { recordSeen } from "../../domain/auth/EnvironmentView.js"
import { type Forbidden, InvalidRequest, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import type {
  CreateExperimentInput,
  Experiment,
  PatchExperimentInput,
  StopExperimentInput
} from "../../domain/experiments/Experiment.js"
import { draftOf, fixedFieldsChanged, metricProblems, patched, targetProblems, variationProblems } from "../../domain/experiments/ExperimentRules.js"
import { environmentNotFound, experimentNotFound, flagNotFound } from "../../domain/NotFound.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { ExperimentRepository } from "../../ports/ExperimentRepository.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize, reach } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

type Failure = InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | StorageError

export interface ExperimentsShape {
  /** The project's experiments in creation order (a key bound to an environment: that environment's only). */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Experiment>, ResourceNotFound | Forbidden | StorageError>
  /** One experiment; 404 when the project has none with that key. */
  readonly get: (projectId: string, key: string) => Effect.Effect<Experiment, ResourceNotFound | Forbidden | StorageError>
  /**
   * A new draft. 404 for an unknown project, flag or environment; 400 when the rule is not in the
   * environment's targeting, serves one variation rather than a percentage rollout, or does not
   * serve the control variation, and for metric keys named twice; 409 for a key already taken.
   */
  readonly create: (projectId: string, input: CreateExperimentInput) => Effect.Effect<Experiment, Failure>
  /**
   * Changes what the body sends. Once started, the flag, environment, rule and metrics may only be
   * sent unchanged (409); the rule is checked again as on a create (400).
   */
  readonly patch: (projectId: string, key: string, input: PatchExperimentInput) => Effect.Effect<Experiment, Failure>
  /** Deletes a draft or stopped experiment with what it collected; a running one is 409 (stop it first). */
  readonly remove: (projectId: string, key: string) => Effect.Effect<void, ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /**
   * Starts a draft: `running` from now (`startedAt`). 409 when it is not a draft, when its rule no
   * longer has a rollout serving the control, or when another running experiment measures the same
   * rule. It changes no targeting, so a protected environment needs no change request.
   */
  readonly start: (projectId: string, key: string) => Effect.Effect<Experiment, ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /** Stops a running experiment (`stoppedAt`), with the team's decision when given (400 for an unknown variation). */
  readonly stop: (projectId: string, key: string, input: StopExperimentInput) => Effect.Effect<Experiment, Failure>
}

export class Experiments extends Context.Tag("@flagport/services/Experiments")<Experiments, ExperimentsShape>() {}

/** Starting or stopping changes the measured rules `GET /v1/config` names, in the experiment's environment. */
const measuredRulesChanged = (projectId: string, revision: number, experiment: Experiment) =>
  configChanged(projectId, revision, "experiment", { environments: [experiment.environment], flagKeys: [experiment.flagKey] })

const invalid = (problems: ReadonlyArray<{ readonly path: string; readonly message: string }>) =>
  new InvalidRequest({ message: "Invalid experiment", details: [...problems] })

export const make = Effect.gen(function* () {
  const repo = yield* ExperimentRepository
  const units = yield* ExperimentUnitRepository
  const flags = yield* FlagRepository
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer

  const existing = (projectId: string, key: string) =>
    Effect.flatMap(repo.get(projectId, key), Option.match({
      onNone: () => Effect.fail(experimentNotFound(projectId, key)),
      onSome: Effect.succeed
    }))

  /** The flag the experiment measures, after its project and environment are known to exist. */
  const flagOf = (projectId: string, experiment: Pick<Experiment, "flagKey" | "environment">) =>
    Effect.gen(function* () {
      if (Option.isNone(yield* environments.get(projectId, experiment.environment))) {
        return yield* environmentNotFound(projectId, experiment.environment)
      }
      const flag = yield* flags.get(projectId, experiment.flagKey)
      if (Option.isNone(flag)) return yield* flagNotFound(projectId, experiment.flagKey)
      return flag.value
    })

  /** Every problem of a draft's definition against its flag (400). */
  const checkDefinition = (projectId: string, experiment: Experiment) =>
    Effect.gen(function* () {
      const flag = yield* flagOf(projectId, experiment)
      const problems = [...metricProblems(experiment), ...targetProblems(experiment, flag)]
      if (problems.length > 0) return yield* invalid(problems)
    })

  const entry = (action: string, experiment: Experiment, before: Experiment | null, after: Experiment | null): Writes.AuditDraft => ({
    action,
    resource: { type: "experiment", key: experiment.key },
    environment: experiment.environment,
    before,
    after
  })

  const list = Effect.fn("Experiments.list")(function* (projectId: string) {
    const allowed = yield* authorize("Experiments.list", projectId)
    yield* requireProject(projects, projectId)
    return (yield* repo.list(projectId)).filter((experiment) => recordSeen(allowed.seen, experiment))
  })

  /**
   * The experiment, once the caller may ask `operation` of it: read before any write's
   * transaction, so a refused call takes no lock and changes nothing (an experiment's environment
   * changes only while it is a draft, and the write checks the one it reads again).
   */
  const allowedOn = (operation: "Experiments.get" | "Experiments.patch" | "Experiments.remove" | "Experiments.start" | "Experiments.stop", projectId: string, key: string, environments?: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      yield* authorize(operation, projectId, environments)
      yield* requireProject(projects, projectId)
      const experiment = yield* existing(projectId, key)
      yield* reach(operation, [experiment.environment])
      return experiment
    })

  /** Inside the write: the experiment as it is now, of an environment the caller may reach. */
  const current = (operation: Parameters<typeof allowedOn>[0], projectId: string, key: string) =>
    Effect.tap(existing(projectId, key), (experiment) => reach(operation, [experiment.environment]))

  const get = Effect.fn("Experiments.get")(function* (projectId: string, key: string) {
    return yield* allowedOn("Experiments.get", projectId, key)
  })

  const create = Effect.fn("Experiments.create")(function* (projectId: string, input: CreateExperimentInput) {
    yield* authorize("Experiments.create", projectId, [input.environment])
    yield* requireProject(projects, projectId)
    const id = yield* ids.next
    return yield* writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        const experiment = draftOf(input, id, now)
        yield* checkDefinition(projectId, experiment)
        yield* repo.insert(projectId, experiment).pipe(
          Effect.catchTag("DuplicateKey", () =>
            Effect.fail(new ResourceConflict({ message: `Experiment '${input.key}' already exists in project '${projectId}'` })))
        )
        return { value: experiment, audit: [entry("experiment.created", experiment, null, experiment)] } satisfies Writes.Recorded<Experiment>
      }))
  })

  const patch = Effect.fn("Experiments.patch")(function* (projectId: string, key: string, input: PatchExperimentInput) {
    yield* allowedOn("Experiments.patch", projectId, key, input.environment === undefined ? undefined : [input.environment])
    return yield* writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        const before = yield* current("Experiments.patch", projectId, key)
        const fixed = fixedFieldsChanged(before, input)
        if (fixed.length > 0) {
          return yield* new ResourceConflict({
            message: `Experiment '${key}' is ${before.status}: its ${fixed.join(", ")} can no longer change`
          })
        }
        const after = patched(before, input, now)
        // A started experiment's rule is what it measured: the targeting may have moved on since,
        // but a new control must still be a variation of the flag.
        if (before.status === "draft") yield* checkDefinition(projectId, after)
        else if (after.controlVariationKey !== before.controlVariationKey) {
          const problems = variationProblems("controlVariationKey", after.controlVariationKey, yield* flagOf(projectId, after))
          if (problems.length > 0) return yield* invalid(problems)
        }
        yield* repo.update(projectId, after).pipe(Effect.catchTag("NotFound", () => Effect.fail(experimentNotFound(projectId, key))))
        return { value: after, audit: [entry("experiment.updated", after, before, after)] } satisfies Writes.Recorded<Experiment>
      }))
  })

  const remove = Effect.fn("Experiments.remove")(function* (projectId: string, key: string) {
    yield* allowedOn("Experiments.remove", projectId, key)
    yield* writes.record(projectId, () =>
      Effect.gen(function* () {
        const before = yield* current("Experiments.remove", projectId, key)
        if (before.status === "running") {
          return yield* new ResourceConflict({ message: `Experiment '${key}' is running; stop it before deleting it` })
        }
        yield* repo.remove(projectId, key).pipe(Effect.catchTag("NotFound", () => Effect.fail(experimentNotFound(projectId, key))))
        yield* units.removeExperiment(before.id)
        return { value: undefined, audit: [entry("experiment.deleted", before, before, null)] } satisfies Writes.Recorded<void>
      }))
  })

  const start = Effect.fn("Experiments.start")(function* (projectId: string, key: string) {
    yield* allowedOn("Experiments.start", projectId, key)
    // A serving write: the environment's configuration names the rules running experiments measure.
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const before = yield* current("Experiments.start", projectId, key)
        if (before.status !== "draft") {
          return yield* new ResourceConflict({ message: `Experiment '${key}' is ${before.status}; only a draft can be started` })
        }
        const flag = yield* flagOf(projectId, before)
        const problems = targetProblems(before, flag)
        if (problems.length > 0) {
          return yield* new ResourceConflict({ message: `Experiment '${key}' cannot start: ${problems.map((p) => p.message).join("; ")}` })
        }
        const rival = (yield* repo.listRunning(projectId, before.environment)).find((other) =>
          other.flagKey === before.flagKey && other.ruleId === before.ruleId)
        if (rival !== undefined) {
          return yield* new ResourceConflict({
            message: `Experiment '${rival.key}' already measures rule '${before.ruleId}' of flag '${before.flagKey}' in '${before.environment}'; stop it first`
          })
        }
        const after: Experiment = { ...before, status: "running", startedAt: now, updatedAt: now }
        yield* repo.update(projectId, after).pipe(Effect.catchTag("NotFound", () => Effect.fail(experimentNotFound(projectId, key))))
        return {
          value: after,
          events: [{ type: "experiment.started", experiment: after }],
          audit: [entry("experiment.started", after, before, after)],
          change: measuredRulesChanged(projectId, revision, after)
        } satisfies Writes.Written<Experiment>
      }))
  })

  const stop = Effect.fn("Experiments.stop")(function* (projectId: string, key: string, input: StopExperimentInput) {
    yield* allowedOn("Experiments.stop", projectId, key)
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const before = yield* current("Experiments.stop", projectId, key)
        if (before.status !== "running") {
          return yield* new ResourceConflict({ message: `Experiment '${key}' is ${before.status}; only a running experiment can be stopped` })
        }
        if (input.decision !== undefined) {
          const problems = variationProblems("decision.variationKey", input.decision.variationKey, yield* flagOf(projectId, before))
          if (problems.length > 0) return yield* invalid(problems)
        }
        const after: Experiment = {
          ...before,
          status: "stopped",
          stoppedAt: now,
          updatedAt: now,
          ...(input.decision === undefined ? {} : { decision: input.decision })
        }
        yield* repo.update(projectId, after).pipe(Effect.catchTag("NotFound", () => Effect.fail(experimentNotFound(projectId, key))))
        return {
          value: after,
          events: [{ type: "experiment.stopped", experiment: after }],
          audit: [entry("experiment.stopped", after, before, after)],
          change: measuredRulesChanged(projectId, revision, after)
        } satisfies Writes.Written<Experiment>
      }))
  })

  return Experiments.of({ list, get, create, patch, remove, start, stop })
})

export const layer = Layer.effect(Experiments, make)
