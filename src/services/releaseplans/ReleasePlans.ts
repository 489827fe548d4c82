import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { recordSeen } from "../../domain/auth/EnvironmentView.js"
import { CurrentActor } from "../../domain/audit/Actor.js"
import type { Flag } from "../../domain/definitions/Flag.js"
import { ChangeRequestMessages } from "../../domain/changes/ChangeRequestRules.js"
import { type ChangeRequestRequired, type Forbidden, InvalidRequest, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { flagNotFound, releasePlanNotFound } from "../../domain/NotFound.js"
import { ANALYSIS_DEFAULTS } from "../../domain/experiments/Experiment.js"
import { checkGuardrails, type GuardrailCheck } from "../../domain/experiments/Guardrail.js"
import { baselineOf } from "../../domain/releaseplans/ApplyStep.js"
import { draftOf, patched } from "../../domain/releaseplans/Drafts.js"
import { planAnalysisPrefix } from "../../domain/releaseplans/PlanAnalysis.js"
import { planProblems, ruleOf } from "../../domain/releaseplans/PlanRules.js"
import type { CreateReleasePlanInput, ReleasePlan, ResumeReleasePlanInput, UpdateReleasePlanInput } from "../../domain/releaseplans/ReleasePlan.js"
import * as T from "../../domain/releaseplans/Transitions.js"
import { ExperimentUnitRepository } from "../../ports/ExperimentUnitRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize, reach } from "../shared/Authorize.js"
import * as Protection from "../shared/Protection.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"
import { Guardrails } from "./Guardrails.js"
import { planEntry, planWrite } from "./PlanWrite.js"
import { startRefusal } from "./StartCheck.js"

/**
 * A start or resume that applies an approved change request (ChangeRequests.apply): never refused
 * for protection (the request was the approval), audited with the request's id, and refused (409,
 * as a flag that moved on is) when the plan is no longer the version the request pinned.
 */
export interface ApprovedOptions {
  readonly changeRequestId?: string | undefined
  /** The plan's version the request pinned. */
  readonly ifMatch?: number | undefined
}

type Failure = InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | StorageError

export interface ReleasePlansShape {
  /** The flag's plans in creation order (a key bound to an environment: that environment's only); 404 for an unknown flag. */
  readonly list: (projectId: string, flagKey: string) => Effect.Effect<ReadonlyArray<ReleasePlan>, ResourceNotFound | Forbidden | StorageError>
  /** One plan of the flag; 404 when it has none with that id. */
  readonly get: (projectId: string, flagKey: string, id: string) => Effect.Effect<ReleasePlan, ResourceNotFound | Forbidden | StorageError>
  /**
   * What the plan's guardrails show now, on its current run's units: the check the stepper makes
   * before each step (a harmed plan's deciding check is its `harm`; this one reads the run after it).
   * Where the host checks no guardrails (no `Guardrails` layer) the list is empty.
   */
  readonly guardrails: (projectId: string, flagKey: string, id: string) => Effect.Effect<GuardrailCheck, ResourceNotFound | Forbidden | StorageError>
  /** A new draft; 400 with every problem of the plan's rules (PlanRules.ts) against the flag. */
  readonly create: (projectId: string, flagKey: string, input: CreateReleasePlanInput) => Effect.Effect<ReleasePlan, Failure>
  /** Changes what the body sends; only a draft (409 otherwise); checked again as a create (400). */
  readonly update: (projectId: string, flagKey: string, id: string, input: UpdateReleasePlanInput) => Effect.Effect<ReleasePlan, Failure>
  /**
   * Deletes a draft, completed or cancelled plan, and its guardrails' per-unit rows of every run;
   * 409 for one that holds its environment (cancel it first).
   */
  readonly remove: (projectId: string, flagKey: string, id: string) => Effect.Effect<void, Failure>
  /**
   * Starts a draft: `running`, its first step due at once (the stepper applies it). 409 when it is
   * not a draft, when its rule no longer fits it, or when another plan holds the flag's
   * environment; a person's start in a protected environment is 409 `change_request_required`
   * unless it applies an approved change request (`options`).
   */
  readonly start: (projectId: string, flagKey: string, id: string, options?: ApprovedOptions) => Effect.Effect<ReleasePlan, Failure | ChangeRequestRequired>
  /** Pauses a running plan at its weight. */
  readonly pause: (projectId: string, flagKey: string, id: string) => Effect.Effect<ReleasePlan, Failure>
  /**
   * Resumes a paused or harmed plan. 409 for one paused by a person's change to its flag's
   * targeting unless `confirm` is true (an approved change request's resume is that confirmation).
   * In a protected environment a person's resume of a harmed plan, or of one paused by a person's
   * change, is 409 `change_request_required` unless it applies an approved change request
   * (Transitions.ts, `resumeNeedsApproval`); a plan paused by hand resumes directly.
   */
  readonly resume: (
    projectId: string,
    flagKey: string,
    id: string,
    input: ResumeReleasePlanInput,
    options?: ApprovedOptions
  ) => Effect.Effect<ReleasePlan, Failure | ChangeRequestRequired>
  /** Stops the plan for good; the rule keeps its weight. */
  readonly cancel: (projectId: string, flagKey: string, id: string) => Effect.Effect<ReleasePlan, Failure>
}

export class ReleasePlans extends Context.Tag("@flagport/services/ReleasePlans")<ReleasePlans, ReleasePlansShape>() {}

type Operation = "ReleasePlans.get" | "ReleasePlans.guardrails" | "ReleasePlans.update" | "ReleasePlans.remove" | "ReleasePlans.start" | "ReleasePlans.pause" | "ReleasePlans.resume" | "ReleasePlans.cancel"

const invalid = (problems: ReadonlyArray<{ readonly path: string; readonly message: string }>) =>
  new InvalidRequest({ message: "Invalid release plan", details: [...problems] })

export const make = Effect.gen(function* () {
  const repo = yield* ReleasePlanRepository
  const flags = yield* FlagRepository
  const projects = yield* ProjectRepository
  const ids = yield* IdGenerator
  const units = yield* ExperimentUnitRepository
  const writes = yield* Writes.writer
  const protection = yield* Protection.guards
  const write = yield* planWrite
  const engine = yield* Effect.serviceOption(Guardrails)

  const flagOf = (projectId: string, flagKey: string): Effect.Effect<Flag, ResourceNotFound | StorageError> =>
    Effect.flatMap(flags.get(projectId, flagKey), Option.match({ onNone: () => Effect.fail(flagNotFound(projectId, flagKey)), onSome: Effect.succeed }))

  const existing = (projectId: string, flagKey: string, id: string) =>
    Effect.flatMap(repo.get(projectId, flagKey, id), Option.match({ onNone: () => Effect.fail(releasePlanNotFound(flagKey, id)), onSome: Effect.succeed }))

  /** The plan, once the caller may ask `operation` of it: read before any transaction, so a refusal takes no lock. */
  const allowedOn = (operation: Operation, projectId: string, flagKey: string, id: string) =>
    Effect.gen(function* () {
      yield* authorize(operation, projectId)
      yield* requireProject(projects, projectId)
      const plan = yield* existing(projectId, flagKey, id)
      yield* reach(operation, [plan.environment])
      return plan
    })

  const checked = (plan: ReleasePlan, flag: Flag) => {
    const problems = planProblems(plan, flag)
    return problems.length > 0 ? Effect.fail(invalid(problems)) : Effect.void
  }

  /**
   * Inside a write: the plan as it is now, refused with 409 unless `action` is allowed in its status
   * (and, for a change request's apply, unless it is still the version the request pinned).
   */
  const currentFor = (action: T.PlanAction, projectId: string, flagKey: string, id: string, ifMatch?: number) =>
    Effect.flatMap(existing(projectId, flagKey, id), (plan) => {
      if (ifMatch !== undefined && plan.version !== ifMatch) return Effect.fail(new ResourceConflict({ message: ChangeRequestMessages.plansMovedOn([id]) }))
      const refusal = T.refusal(action, plan)
      return refusal === null ? Effect.succeed(plan) : Effect.fail(new ResourceConflict({ message: refusal }))
    })

  /** In a protected environment a person's hand needs an approved change request (none when `options` name one). */
  const guarded = (projectId: string, environment: string, options?: ApprovedOptions) =>
    protection.direct(projectId, environment, { changeRequestId: options?.changeRequestId })

  const list = Effect.fn("ReleasePlans.list")(function* (projectId: string, flagKey: string) {
    const allowed = yield* authorize("ReleasePlans.list", projectId)
    yield* requireProject(projects, projectId)
    yield* flagOf(projectId, flagKey)
    return (yield* repo.list(projectId, flagKey)).filter((plan) => recordSeen(allowed.seen, plan))
  })

  const get = Effect.fn("ReleasePlans.get")(function* (projectId: string, flagKey: string, id: string) {
    return yield* allowedOn("ReleasePlans.get", projectId, flagKey, id)
  })

  const guardrails = Effect.fn("ReleasePlans.guardrails")(function* (projectId: string, flagKey: string, id: string) {
    const plan = yield* allowedOn("ReleasePlans.guardrails", projectId, flagKey, id)
    if (Option.isNone(engine)) return checkGuardrails([], { alpha: plan.alpha, plannedUnits: ANALYSIS_DEFAULTS.plannedUnits })
    return yield* engine.value.check(projectId, plan)
  })

  const create = Effect.fn("ReleasePlans.create")(function* (projectId: string, flagKey: string, input: CreateReleasePlanInput) {
    yield* authorize("ReleasePlans.create", projectId, [input.environment])
    yield* requireProject(projects, projectId)
    const id = `rp-${yield* ids.next}`
    return yield* writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        const plan = draftOf(input, flagKey, id, now)
        yield* checked(plan, yield* flagOf(projectId, flagKey))
        yield* repo.insert(projectId, plan, null)
        return { value: plan, audit: [planEntry("release_plan.created", null, plan)] } satisfies Writes.Recorded<ReleasePlan>
      }))
  })

  const update = Effect.fn("ReleasePlans.update")(function* (projectId: string, flagKey: string, id: string, input: UpdateReleasePlanInput) {
    yield* allowedOn("ReleasePlans.update", projectId, flagKey, id)
    return yield* write(projectId, ({ now }) =>
      Effect.gen(function* () {
        const before = yield* currentFor("update", projectId, flagKey, id)
        const after = patched(before, input, now)
        yield* checked(after, yield* flagOf(projectId, flagKey))
        return { before, after, action: "release_plan.updated" }
      }))
  })

  const remove = Effect.fn("ReleasePlans.remove")(function* (projectId: string, flagKey: string, id: string) {
    yield* allowedOn("ReleasePlans.remove", projectId, flagKey, id)
    yield* writes.record(projectId, () =>
      Effect.gen(function* () {
        const before = yield* currentFor("delete", projectId, flagKey, id)
        if (!(yield* repo.remove(projectId, flagKey, id))) return yield* releasePlanNotFound(flagKey, id)
        // Its guardrails' per-unit rows, of every run it had, go with it (as a deleted experiment's do).
        yield* units.removeAnalyses(planAnalysisPrefix(before))
        return { value: undefined, audit: [planEntry("release_plan.deleted", before, null)] } satisfies Writes.Recorded<void>
      }))
  })

  const start = Effect.fn("ReleasePlans.start")(function* (projectId: string, flagKey: string, id: string, options?: ApprovedOptions) {
    const plan = yield* allowedOn("ReleasePlans.start", projectId, flagKey, id)
    // Its steps change targeting: in a protected environment a person's start needs approval.
    yield* guarded(projectId, plan.environment, options)
    const starter = T.starterOf(yield* CurrentActor)
    return yield* write(projectId, ({ millis }) =>
      Effect.gen(function* () {
        const before = yield* currentFor("start", projectId, flagKey, id, options?.ifMatch)
        const flag = yield* flagOf(projectId, flagKey)
        const refused = yield* startRefusal(projectId, before, flag).pipe(Effect.provideService(ReleasePlanRepository, repo))
        if (Option.isSome(refused)) return yield* refused.value
        const after = T.started(before, baselineOf(ruleOf(before, flag)!, before.variationKey), starter, millis)
        return { before, after, action: "release_plan.started", event: "release_plan.started", changeRequestId: options?.changeRequestId }
      }), true)
  })

  const pause = Effect.fn("ReleasePlans.pause")(function* (projectId: string, flagKey: string, id: string) {
    yield* allowedOn("ReleasePlans.pause", projectId, flagKey, id)
    return yield* write(projectId, ({ millis }) =>
      Effect.map(currentFor("pause", projectId, flagKey, id), (before) =>
        ({ before, after: T.paused(before, "manual", millis), action: "release_plan.paused", event: "release_plan.paused" })), true)
  })

  const resume = Effect.fn("ReleasePlans.resume")(function* (
    projectId: string,
    flagKey: string,
    id: string,
    input: ResumeReleasePlanInput,
    options?: ApprovedOptions
  ) {
    const plan = yield* allowedOn("ReleasePlans.resume", projectId, flagKey, id)
    // Resuming after harm, or over a person's change, decides again what production serves.
    if (T.resumeNeedsApproval(plan)) yield* guarded(projectId, plan.environment, options)
    const viaRequest = options?.changeRequestId !== undefined
    return yield* write(projectId, ({ millis }) =>
      Effect.gen(function* () {
        const before = yield* currentFor("resume", projectId, flagKey, id, options?.ifMatch)
        // Read again in the write: a plan harmed since the first read is judged as it is now.
        if (T.resumeNeedsApproval(before) && !T.resumeNeedsApproval(plan)) yield* guarded(projectId, before.environment, options)
        if (before.pausedBy === "targetingChanged" && input.confirm !== true && !viaRequest) return yield* new ResourceConflict({ message: T.confirmNeeded(before) })
        return { before, after: T.resumed(before, millis), action: "release_plan.resumed", changeRequestId: options?.changeRequestId }
      }), true)
  })

  const cancel = Effect.fn("ReleasePlans.cancel")(function* (projectId: string, flagKey: string, id: string) {
    yield* allowedOn("ReleasePlans.cancel", projectId, flagKey, id)
    return yield* write(projectId, ({ millis }) =>
      Effect.map(currentFor("cancel", projectId, flagKey, id), (before) =>
        ({ before, after: T.cancelled(before, millis), action: "release_plan.cancelled", event: "release_plan.cancelled" })), true)
  })

  return ReleasePlans.of({ list, get, guardrails, create, update, remove, start, pause, resume, cancel })
})

export const layer = Layer.effect(ReleasePlans, make)
