/**
 * Flags as code (docs/guide/flags-as-code.md): a project as one declarative file, exported, planned and
 * applied. The file is checked whole before anything is written (every problem with its path in
 * the file); the plan (domain/ascode/Plan.ts) says what must change; the apply writes it as ONE
 * write of several use cases (Writes.spanning: one transaction) through the API's own use cases
 * (FlagsAsCodeSteps.ts), one audit entry per change with the caller as actor.
 *
 * Concurrency: the apply takes the project's write lock first (the revision bump of
 * `Writes.serving`, a row lock on PostgreSQL), reads the project again and plans again; unless
 * that plan is the plan it was given (same changes, based on the same flag versions and segment
 * times), it refuses (409) and writes nothing. So what the plan read is what is written over.
 *
 * Protected environments: targeting a person may not write directly (Protection.ts) is proposed
 * as a change request of its environment instead, and the plan says so (`changeRequest`); a flag
 * the person's pending request already proposes updates that request, or, proposed alike, is no
 * change at all (PendingProposals.ts).
 *
 * Who may ask (`CurrentCaller`, domain/auth/Permissions.ts): exporting needs `read` in the project
 * and every environment (no key bound to one; the manifest of one environment's defaults is that
 * environment's); planning and applying need `write`, and every change of the plan is then decided
 * as its own operation would be (domain/ascode/PlanAccess.ts), before anything is written, a dry run too.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ApplyResult, OpenedChangeRequest } from "../../domain/ascode/ApplyResult.js"
import { type ExportFormat, exportText } from "../../domain/ascode/ExportText.js"
import { againstPending } from "../../domain/ascode/PendingProposals.js"
import { type OpenFeatureManifest, openFeatureManifest } from "../../domain/ascode/OpenFeatureManifest.js"
import { desiredEnvironment, environmentsNamed, type FilePlan, type Plan, plan as planOf, planIdentity, samePlan } from "../../domain/ascode/Plan.js"
import { summary } from "../../domain/ascode/PlanText.js"
import type { ProjectFile } from "../../domain/ascode/ProjectFile.js"
import { type ProjectState, toFile } from "../../domain/ascode/ProjectState.js"
import { validateFile } from "../../domain/ascode/ValidateFile.js"
import { type Actor, CurrentActor } from "../../domain/audit/Actor.js"
import { authorizePlan } from "../../domain/ascode/PlanAccess.js"
import { actorIdentity } from "../../domain/changes/ChangeRequest.js"
import { isPersonsHand } from "../../domain/changes/Protection.js"
import {
  type ChangeRequestRequired,
  type Forbidden,
  InvalidRequest,
  type PreconditionFailed,
  ResourceConflict,
  type ResourceNotFound
} from "../../domain/Errors.js"
import { environmentNotFound, projectNotFound } from "../../domain/NotFound.js"
import { ReleasePlanStatus } from "../../domain/releaseplans/ReleasePlan.js"
import { ChangeRequestRepository } from "../../ports/ChangeRequestRepository.js"
import { Crypto } from "../../ports/Crypto.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { allowedBy, authorize } from "../shared/Authorize.js"
import { steps } from "./FlagsAsCodeSteps.js"
import * as Writes from "../shared/Writes.js"

export interface ApplyOptions {
  /** Delete the flags, segments and release plan drafts the file leaves out (never environments, never a started plan). */
  readonly prune?: boolean
  /** Plan only: write nothing. */
  readonly dryRun?: boolean
  /** The plan shown to the caller: the apply refuses (409) unless planning again in its transaction gives the same. */
  readonly basedOn?: Plan
  /**
   * The fingerprint of a plan shown before (`POST .../apply?plan=`, `flagport apply --plan`): the
   * apply refuses (409) unless the plan now has it, so CI applies the plan a pull request showed.
   */
  readonly planFingerprint?: string
}

export type ApplyError =
  | InvalidRequest
  | ResourceNotFound
  | ResourceConflict
  | PreconditionFailed
  | ChangeRequestRequired
  | Forbidden
  | StorageError

export interface FlagsAsCodeShape {
  /** The project as a file (ProjectState.ts gives its order); 404 for an unknown project. */
  readonly exportFile: (projectId: string) => Effect.Effect<ProjectFile, ResourceNotFound | Forbidden | StorageError>
  /**
   * The OpenFeature CLI's manifest of the project's flags, default values from `environment`
   * (default: the project's first environment); 404 for an unknown project or environment.
   */
  readonly manifest: (projectId: string, environment?: string) => Effect.Effect<OpenFeatureManifest, ResourceNotFound | Forbidden | StorageError>
  /**
   * An export's text, the same whoever asks (ExportText.ts): the file in `format`, or the manifest
   * of `environment`'s defaults (`openfeature-manifest`); 400 for an environment named with
   * another format (the file holds every environment).
   */
  readonly exportText: (
    projectId: string,
    format: ExportFormat,
    environment?: string
  ) => Effect.Effect<string, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
  /**
   * What applying `input` (the file's parsed value, not yet checked) would change, writing nothing:
   * 400 with every problem of the file (paths in the file). The project need not exist (its
   * creation is then the first change). With the environments the file names, each once.
   */
  readonly plan: (projectId: string, input: unknown, options?: ApplyOptions) => Effect.Effect<FilePlan, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
  /** Plans, then (unless `dryRun` or nothing changes) applies the plan in one transaction. */
  readonly apply: (projectId: string, input: unknown, options?: ApplyOptions) => Effect.Effect<ApplyResult, ApplyError>
}

export class FlagsAsCode extends Context.Tag("@flagport/services/FlagsAsCode")<FlagsAsCode, FlagsAsCodeShape>() {}

const conflictMessage = (projectId: string) =>
  `Project '${projectId}' changed since the plan was made; nothing was applied: plan again`

const fingerprintConflict = (projectId: string, shown: string, now: string) =>
  `Project '${projectId}' changed since plan ${shown} was shown (its plan is now ${now}); nothing was applied: plan again`

/** Hex digits of a plan's fingerprint: SHA-256 of what it would do (planIdentity), shortened to be read and pasted. */
const FINGERPRINT_LENGTH = 16

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const segments = yield* SegmentRepository
  const flags = yield* FlagRepository
  const releasePlans = yield* ReleasePlanRepository
  const changeRequests = yield* ChangeRequestRepository
  const crypto = yield* Crypto
  const fingerprintOf = (plan: Plan): string => crypto.sha256Hex(planIdentity(plan)).slice(0, FINGERPRINT_LENGTH)
  const writes = yield* Writes.writer
  const write = yield* steps

  const read = (projectId: string): Effect.Effect<ProjectState, StorageError> =>
    Effect.gen(function* () {
      const project = Option.getOrNull(yield* projects.get(projectId))
      if (project === null) return { project, environments: [], segments: [], flags: [], releasePlans: [] }
      const [envs, segs, all, plans] = yield* Effect.all([
        environments.list(projectId),
        segments.list(projectId),
        flags.list(projectId),
        releasePlans.listIn(projectId, ReleasePlanStatus.literals)
      ])
      return { project, environments: envs, segments: segs, flags: all, releasePlans: plans }
    })

  const exportFile = Effect.fn("FlagsAsCode.exportFile")(function* (projectId: string) {
    yield* authorize("FlagsAsCode.exportFile", projectId)
    const state = yield* read(projectId)
    if (state.project === null) return yield* projectNotFound(projectId)
    return toFile({ ...state, project: state.project })
  })

  const manifest = Effect.fn("FlagsAsCode.manifest")(function* (projectId: string, environment?: string) {
    // Naming none, the defaults are the first environment's: one a bound key may not know is its own.
    yield* authorize("FlagsAsCode.manifest", projectId, [environment ?? null])
    const state = yield* read(projectId)
    if (state.project === null) return yield* projectNotFound(projectId)
    const chosen = environment ?? state.environments[0]?.key
    if (chosen === undefined || !state.environments.some((e) => e.key === chosen)) {
      return yield* environmentNotFound(projectId, chosen ?? "(none: the project has no environment)")
    }
    return openFeatureManifest(state.flags, chosen)
  })

  const exportAs = Effect.fn("FlagsAsCode.exportText")(function* (projectId: string, format: ExportFormat, environment?: string) {
    if (environment !== undefined && format !== "openfeature-manifest") {
      return yield* new InvalidRequest({ message: "Invalid request", details: [{ path: "environment", message: "is only for format=openfeature-manifest" }] })
    }
    return format === "openfeature-manifest"
      ? exportText({ manifest: yield* manifest(projectId, environment) })
      : exportText({ file: yield* exportFile(projectId), format })
  })

  /**
   * The plan against `state`: targeting a person may not write in a protected environment marked as
   * proposed, then matched with their pending change requests (PendingProposals.ts), so the same
   * file applied again proposes nothing twice.
   */
  const planAgainst = (projectId: string, state: ProjectState, file: ProjectFile, prune: boolean) =>
    Effect.gen(function* () {
      const actor = yield* CurrentActor
      const planned = planOf(projectId, state, file, { prune })
      if (!isPersonsHand(actor)) return planned
      const protectedAfter = new Map(state.environments.map((e) => [e.key, e.protected]))
      for (const e of file.environments ?? []) protectedAfter.set(e.key, desiredEnvironment(e).protected ?? false)
      const changes = planned.changes.map((c) => (c.resource === "targeting" && protectedAfter.get(c.environment) === true ? { ...c, changeRequest: true } : c))
      if (!changes.some((c) => c.resource === "targeting" && c.changeRequest === true)) return { ...planned, changes }
      const matched = againstPending(changes, yield* pendingOf(projectId, actor))
      return { ...planned, changes: matched.changes, pendingChangeRequests: matched.pending } satisfies Plan
    })

  /** The actor's pending (open or approved) change requests in the project, newest first. */
  const pendingOf = (projectId: string, actor: Actor) =>
    Effect.map(Effect.all([changeRequests.list(projectId, "open"), changeRequests.list(projectId, "approved")]), ([open, approved]) =>
      [...open, ...approved]
        .filter((r) => actorIdentity(r.author) === actorIdentity(actor))
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0)))

  /** The file checked and planned, once the caller may make every change of the plan (PlanAccess.ts). */
  const checked = (projectId: string, input: unknown, prune: boolean) =>
    Effect.gen(function* () {
      const state = yield* read(projectId)
      const file = validateFile(input, state, { prune })
      if (Either.isLeft(file)) return yield* new InvalidRequest({ message: "Invalid project file", details: [...file.left] })
      const planned: FilePlan = { ...(yield* planAgainst(projectId, state, file.right, prune)), environmentsNamed: environmentsNamed(file.right) }
      yield* allowedBy((caller) => authorizePlan(caller, planned))
      return { file: file.right, plan: planned }
    })

  const plan = Effect.fn("FlagsAsCode.plan")(function* (projectId: string, input: unknown, options?: ApplyOptions) {
    yield* authorize("FlagsAsCode.plan", projectId)
    return (yield* checked(projectId, input, options?.prune ?? false)).plan
  })

  /**
   * `expected` written as one write of several use cases (Writes.spanning): the project it creates
   * first, then under the project's lock it plans again, refuses unless that is `expected`, and
   * writes it.
   */
  const applyPlan = (projectId: string, file: ProjectFile, expected: Plan, prune: boolean) => {
    const creates = Effect.forEach(expected.changes.filter((c) => c.resource === "project"), (change) =>
      write.run(projectId, change).pipe(Effect.catchTag("ResourceConflict", () => new ResourceConflict({ message: conflictMessage(projectId) }))))
    const underLock = Effect.gen(function* () {
      const now = yield* planAgainst(projectId, yield* read(projectId), file, prune)
      const pending = expected.changes.filter((c) => c.resource !== "project")
      if (!samePlan({ ...now }, { ...expected, changes: pending })) return yield* new ResourceConflict({ message: conflictMessage(projectId) })
      const finish: Array<Effect.Effect<void, ApplyError>> = []
      const proposed = pending.flatMap((c) => (c.resource === "targeting" && c.changeRequest === true ? [c] : []))
      for (const change of pending.filter((c) => c.resource !== "targeting" || c.changeRequest !== true)) {
        finish.push(yield* write.run(projectId, change))
      }
      for (const step of finish) yield* step
      const opened: ReadonlyArray<OpenedChangeRequest> = yield* write.propose(projectId, proposed)
      return opened
    })
    return writes.spanning(projectId, underLock, creates)
  }

  const apply = Effect.fn("FlagsAsCode.apply")(function* (projectId: string, input: unknown, options?: ApplyOptions) {
    yield* authorize("FlagsAsCode.apply", projectId)
    const prune = options?.prune ?? false
    const { file, plan: planned } = yield* checked(projectId, input, prune)
    const shown = options?.basedOn ?? planned
    const result = (applied: boolean, changeRequests: ReadonlyArray<OpenedChangeRequest>): ApplyResult => ({
      projectId,
      dryRun: options?.dryRun ?? false,
      applied,
      summary: summary(shown),
      changes: shown.changes,
      changeRequests,
      pendingChangeRequests: shown.pendingChangeRequests ?? [],
      fingerprint: fingerprintOf(shown)
    })
    const now = fingerprintOf(planned)
    if (options?.planFingerprint !== undefined && options.planFingerprint !== now) {
      return yield* new ResourceConflict({ message: fingerprintConflict(projectId, options.planFingerprint, now) })
    }
    if (options?.dryRun === true) return result(false, [])
    if (options?.basedOn !== undefined && !samePlan(options.basedOn, planned)) return yield* new ResourceConflict({ message: conflictMessage(projectId) })
    if (shown.changes.length === 0) return result(false, [])
    const opened = yield* applyPlan(projectId, file, shown, prune)
    return result(true, opened)
  })

  return FlagsAsCode.of({ exportFile, manifest, exportText: exportAs, plan, apply })
})

export const layer = Layer.effect(FlagsAsCode, make)
