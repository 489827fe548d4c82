/**
 * Change requests (docs/guide/change-requests.md): proposed targeting changes to one environment,
 * approved by others, then applied through the very use case of the targeting PUT. Who may ask for
 * each is first the one table's (domain/auth/Permissions.ts: `read`, `propose` or `approve` in the
 * project, and a key bound to an environment only for that environment's requests: the others are
 * left out of its list and 403 by id), then the change requests' own rules
 * (domain/changes/ChangeRequestRules.ts: the author, the approvers, the status), for the actor of
 * the call (`CurrentActor`: a person over HTTP, `cli` from the command line or an Effect host, the
 * scheduler for `applyAt`).
 *
 * Every write reads the request inside its transaction and replaces it with a compare-and-set on
 * its version, so two approvals, two applies or an apply and an update never both land. An apply
 * also starts with the project's revision bump (Writes.serving), which on PostgreSQL locks the
 * project row: a second apply, on this process or another, waits, then finds the request applied.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type Actor, CurrentActor } from "../../domain/audit/Actor.js"
import { recordSeen } from "../../domain/auth/EnvironmentView.js"
import type { Operation } from "../../domain/auth/Permissions.js"
import {
  actorIdentity,
  type ApproveInput,
  type Change,
  type ChangeInput,
  type ChangeRequest,
  type ChangeRequestRecord,
  type ChangeRequestStatus,
  type CreateChangeRequestInput,
  duplicateFlags,
  recordOf,
  type RejectInput,
  shownConfig,
  type StoredChangeRequest,
  type UpdateChangeRequestInput
} from "../../domain/changes/ChangeRequest.js"
import { type ChangeRequestAction, ChangeRequestMessages, decide, statusWith } from "../../domain/changes/ChangeRequestRules.js"
import { Forbidden, InvalidRequest, type Problem, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { changeRequestNotFound } from "../../domain/NotFound.js"
import type { ChangeRequestEventType } from "../../domain/webhooks/Webhook.js"
import { normalizeTime, targetingInputOf } from "../../domain/schedules/Schedule.js"
import { ChangeRequestRepository } from "../../ports/ChangeRequestRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import * as ApprovalStanding from "./ApprovalStanding.js"
import * as AuthorStanding from "./AuthorStanding.js"
import * as ChangeRequestChecks from "./ChangeRequestChecks.js"
import * as Pins from "./Pins.js"
import * as PlanChecks from "./PlanChecks.js"
import { Flags } from "../flags/Flags.js"
import { authorize, reach } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

type Refused = Forbidden | ResourceConflict | ResourceNotFound | StorageError

export interface ChangeRequestsShape {
  /**
   * Opens a change request by the actor: each change is checked exactly as the targeting PUT
   * would check it (400 with every problem, paths under `changes[i].targeting`; 404 for an unknown
   * flag or environment), and the flag's version and configuration now are recorded
   * (`baseVersion`, `before`). 403 unless the actor may propose.
   */
  readonly open: (projectId: string, input: CreateChangeRequestInput) => Effect.Effect<ChangeRequest, InvalidRequest | Refused>
  /** The project's change requests, newest first (of one status when named); 404 for an unknown project. */
  readonly list: (projectId: string, status?: ChangeRequestStatus) => Effect.Effect<ReadonlyArray<ChangeRequest>, ResourceNotFound | Forbidden | StorageError>
  /** One change request; 404 for an unknown project or request. */
  readonly get: (projectId: string, id: string) => Effect.Effect<ChangeRequest, ResourceNotFound | Forbidden | StorageError>
  /**
   * By the author while open or approved: replaces what is sent (the changes checked as on open and
   * re-based; left out, kept as they were), clears the approvals. 400 when nothing is sent.
   */
  readonly update: (projectId: string, id: string, input: UpdateChangeRequestInput) => Effect.Effect<ChangeRequest, InvalidRequest | Refused>
  /** By someone who may approve, not the author, once each; `approved` once the environment's count is reached. */
  readonly approve: (projectId: string, id: string, input: ApproveInput) => Effect.Effect<ChangeRequest, Refused>
  /** By someone who may approve, not the author: closes it as `rejected`. */
  readonly reject: (projectId: string, id: string, input: RejectInput) => Effect.Effect<ChangeRequest, Refused>
  /** By the author or a project admin: closes it as `cancelled`. */
  readonly cancel: (projectId: string, id: string) => Effect.Effect<ChangeRequest, Refused>
  /**
   * By the author or an approver once approved: every change through `Flags.replaceTargeting` (its
   * validation, webhook event, change feed and audit entry, which names the request) in one
   * transaction with the request becoming `applied`. 409 naming the flags whose version is no
   * longer the change's `baseVersion`, or the segments its rules name that changed since they were
 * pinned (`segments`): nothing is applied and the request stays approved.
   */
  readonly apply: (projectId: string, id: string) => Effect.Effect<ChangeRequest, InvalidRequest | Refused>
  /**
   * The scheduler's apply of an approved request whose `applyAt` has come (Scheduler.ts), as the
   * actor `{ type: "schedule" }` naming the author: `applied`; `failed` when it cannot be applied
   * (a flag moved on, a change no longer valid): it stays approved with `failure` saying why, and is
   * not tried again until its author updates it; `lost` when it was no longer approved (applied,
   * cancelled or updated meanwhile, on this process or another).
   */
  readonly applyDue: (request: StoredChangeRequest) => Effect.Effect<"applied" | "failed" | "lost", StorageError>
}

export class ChangeRequests extends Context.Tag("@flagport/services/ChangeRequests")<ChangeRequests, ChangeRequestsShape>() {}

type AuditedAction = "change_request.updated" | "change_request.approved" | "change_request.rejected" | "change_request.cancelled" | "change_request.applied"

/** The webhook event of each write (opt-in, as every event): updates and cancellations announce none. */
const EVENT_OF: { readonly [A in AuditedAction]?: ChangeRequestEventType } = {
  "change_request.approved": "change_request.approved",
  "change_request.rejected": "change_request.rejected",
  "change_request.applied": "change_request.applied"
}

export const make = Effect.gen(function* () {
  const repo = yield* ChangeRequestRepository
  const projects = yield* ProjectRepository
  const flags = yield* Flags
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer
  const authorRefusal = yield* AuthorStanding.refusal

  const standing = yield* ApprovalStanding.make
  const checkChanges = yield* ChangeRequestChecks.checker
  const checkPlans = yield* PlanChecks.checker
  const applyPlans = yield* PlanChecks.applier
  const { movedOn } = yield* Pins.pins

  /** The rules' decision for the actor on `request` (or on a request about to be opened); an apply counts the approvals that still stand. */
  const judge = (action: ChangeRequestAction, projectId: string, request?: StoredChangeRequest) =>
    Effect.gen(function* () {
      const actor = yield* CurrentActor
      const me = actorIdentity(actor)
      const role = yield* standing.roleOf(projectId, actor)
      yield* decide(action, {
        role,
        status: request?.status ?? "open",
        isAuthor: request !== undefined && actorIdentity(request.author) === me,
        hasApproved: request !== undefined && request.approvals.some((a) => actorIdentity(a.by) === me),
        approvals: request === undefined ? 0 : action === "apply" ? (yield* standing.counted(projectId, request.approvals)).length : request.approvals.length,
        requiredApprovals: request?.requiredApprovals ?? 1
      })
      return actor
    })

  /** The stored request, read inside the write's transaction; 404 when the project has none by that id. */
  const load = (projectId: string, id: string) =>
    Effect.flatMap(repo.get(projectId, id), (found) => (Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(changeRequestNotFound(projectId, id))))

  /** Replaces `before` with `after` (compare-and-set) and answers its audit entry; none when it changed meanwhile. */
  const trySave = (before: StoredChangeRequest, after: StoredChangeRequest, action: AuditedAction) =>
    Effect.gen(function* () {
      if (!(yield* repo.replace(after, before.version))) return Option.none()
      const shown = yield* standing.shown(after)
      const event = EVENT_OF[action]
      return Option.some({
        value: shown,
        ...(event === undefined ? {} : { events: [{ type: event, changeRequest: recordOf(after) }] }),
        audit: [{ action, resource: { type: "change_request", key: after.id }, environment: after.environment, before: recordOf(before), after: recordOf(after) }]
      } satisfies Writes.Recorded<ChangeRequest>)
    })
  /**
   * The stored request, read before a write's transaction to decide who may act on it (404 when
   * the project has none by that id; 403 for a key bound to another environment than its).
   */
  const allowedOn = (operation: Operation, projectId: string, id: string) =>
    Effect.gen(function* () {
      yield* authorize(operation, projectId)
      const found = yield* repo.get(projectId, id)
      if (Option.isNone(found)) {
        yield* requireProject(projects, projectId)
        return yield* changeRequestNotFound(projectId, id)
      }
      yield* reach(operation, [found.value.environment])
      return found.value
    })

  /** A request must propose something: targeting changes, release plans, or both. */
  const nothingProposed = new InvalidRequest({ message: "Invalid change request", details: [{ path: "changes", message: ChangeRequestMessages.nothingProposed }] })

  const changedMeanwhile = new ResourceConflict({ message: "This change request changed meanwhile; read it again and retry" })

  /**
   * A write to one request: read it in the transaction, judge the actor, then `change` it. Another
   * write landing first (a second approval at the same moment, on PostgreSQL) is read and judged
   * again rather than refused: each approval counts, a second one by the same person is still 409.
   */
  const transition = <E>(
    projectId: string,
    id: string,
    action: ChangeRequestAction,
    change: (request: StoredChangeRequest, actor: Actor, now: string) => Effect.Effect<StoredChangeRequest, E>,
    audited: AuditedAction
  ) =>
    writes.record(projectId, ({ now }) =>
      Effect.gen(function* () {
        for (let attempt = 1; ; attempt++) {
          const request = yield* load(projectId, id)
          const actor = yield* judge(action, projectId, request)
          const next = yield* change(request, actor, now)
          const saved = yield* trySave(request, { ...next, updatedAt: now, version: request.version + 1 }, audited)
          if (Option.isSome(saved)) return saved.value
          if (attempt === 5) return yield* changedMeanwhile
        }
      }))

  const open = Effect.fn("ChangeRequests.open")(function* (projectId: string, input: CreateChangeRequestInput) {
    yield* authorize("ChangeRequests.open", projectId, [input.environment])
    yield* judge("open", projectId)
    if ((input.changes ?? []).length === 0 && (input.releasePlans ?? []).length === 0) return yield* nothingProposed
    const { changes, segments, requiredApprovals } = yield* checkChanges(projectId, input.environment, input.changes ?? [])
    const releasePlans = yield* checkPlans(projectId, input.environment, input.releasePlans ?? [])
    const id = yield* ids.next
    const author = yield* CurrentActor
    return yield* writes.record(projectId, ({ now }) => {
      const request: StoredChangeRequest = {
        id,
        projectId,
        environment: input.environment,
        title: input.title,
        description: input.description ?? null,
        status: "open",
        author,
        createdAt: now,
        updatedAt: now,
        changes,
        releasePlans,
        segments,
        approvals: [],
        requiredApprovals,
        applyAt: input.applyAt === undefined ? null : normalizeTime(input.applyAt),
        rejection: null,
        appliedAt: null,
        appliedBy: null,
        failure: null,
        version: 1
      }
      return repo.insert(request).pipe(
        Effect.catchTag("DuplicateKey", Effect.die),
        Effect.zipRight(standing.shown(request)),
        Effect.map((shown) => ({
          value: shown,
          events: [{ type: "change_request.opened", changeRequest: recordOf(request) }],
          audit: [{ action: "change_request.opened", resource: { type: "change_request", key: id }, environment: request.environment, before: null, after: recordOf(request) }]
        } satisfies Writes.Recorded<ChangeRequest>))
      )
    })
  })

  const list = Effect.fn("ChangeRequests.list")(function* (projectId: string, status?: ChangeRequestStatus) {
    const { seen } = yield* authorize("ChangeRequests.list", projectId)
    yield* requireProject(projects, projectId)
    return yield* standing.shownAll((yield* repo.list(projectId, status)).filter((request) => recordSeen(seen, request)))
  })

  const get = Effect.fn("ChangeRequests.get")(function* (projectId: string, id: string) {
    yield* authorize("ChangeRequests.get", projectId)
    const found = yield* repo.get(projectId, id)
    if (Option.isNone(found)) {
      yield* requireProject(projects, projectId)
      return yield* changeRequestNotFound(projectId, id)
    }
    yield* reach("ChangeRequests.get", [found.value.environment])
    return yield* standing.shown(found.value)
  })

  const update = Effect.fn("ChangeRequests.update")(function* (projectId: string, id: string, input: UpdateChangeRequestInput) {
    const current = yield* allowedOn("ChangeRequests.update", projectId, id)
    // Judged before the checks, so that nobody but the author learns what the flags would say.
    yield* judge("update", projectId, current)
    if (Object.values(input).every((value) => value === undefined)) {
      return yield* new InvalidRequest({ message: "Nothing to update", details: [{ path: "", message: "must name at least one of title, description, changes, releasePlans, applyAt" }] })
    }
    // Without `changes` they stay as they were, base versions included: rewording a request never re-bases it quietly.
    const checked = input.changes === undefined ? undefined : yield* checkChanges(projectId, current.environment, input.changes)
    // The same for `releasePlans`: sent, they are checked and pinned again on the plans as they are now.
    const checkedPlans = input.releasePlans === undefined ? undefined : yield* checkPlans(projectId, current.environment, input.releasePlans)
    if ((checked?.changes ?? current.changes).length === 0 && (checkedPlans ?? current.releasePlans).length === 0) return yield* nothingProposed
    return yield* transition(projectId, id, "update", (request) =>
      Effect.succeed<StoredChangeRequest>({
        ...request,
        title: input.title ?? request.title,
        description: input.description === undefined ? request.description : input.description,
        applyAt: input.applyAt === undefined ? request.applyAt : input.applyAt === null ? null : normalizeTime(input.applyAt),
        changes: checked?.changes ?? request.changes,
        releasePlans: checkedPlans ?? request.releasePlans,
        segments: checked?.segments ?? request.segments,
        requiredApprovals: checked?.requiredApprovals ?? request.requiredApprovals,
        approvals: [],
        status: "open",
        failure: null
      }), "change_request.updated")
  })

  const approve = Effect.fn("ChangeRequests.approve")(function* (projectId: string, id: string, input: ApproveInput) {
    yield* allowedOn("ChangeRequests.approve", projectId, id)
    return yield* transition(projectId, id, "approve", (request, actor, now) => {
      const approvals = [...request.approvals, { by: actor, at: now, comment: input.comment ?? null }]
      // A new approval may make a scheduled request that failed for want of approvals due again.
      return Effect.succeed<StoredChangeRequest>({ ...request, approvals, status: statusWith(approvals.length, request.requiredApprovals), failure: null })
    }, "change_request.approved")
  })

  const reject = Effect.fn("ChangeRequests.reject")(function* (projectId: string, id: string, input: RejectInput) {
    yield* allowedOn("ChangeRequests.reject", projectId, id)
    return yield* transition(projectId, id, "reject", (request, actor, now) =>
      Effect.succeed<StoredChangeRequest>({ ...request, status: "rejected", rejection: { by: actor, at: now, comment: input.comment } }), "change_request.rejected")
  })

  const cancel = Effect.fn("ChangeRequests.cancel")(function* (projectId: string, id: string) {
    yield* allowedOn("ChangeRequests.cancel", projectId, id)
    return yield* transition(projectId, id, "cancel", (request) => Effect.succeed<StoredChangeRequest>({ ...request, status: "cancelled" }), "change_request.cancelled")
  })

  /**
   * The apply, in the caller's transaction after the project's revision bump: judged (by hand: the
   * rules; the scheduler: approved, its author still able to write), counting the approvals that
   * still stand; 409 for flags that moved on; then `applied` (compare-and-set) and each change through
   * the PUT's use case. A write to the request landing first (an approval or update at the same
   * moment, on PostgreSQL) is read and judged again, as in `transition`: applied, or the real reason.
   */
  const applyWithin = (projectId: string, id: string, judged: boolean, now: string) =>
    Effect.gen(function* () {
      for (let attempt = 1; ; attempt++) {
        const request = yield* load(projectId, id)
        const actor = judged ? yield* judge("apply", projectId, request) : yield* CurrentActor
        if (!judged) {
          if (request.status !== "approved") return yield* new ResourceConflict({ message: `This change request is ${request.status}` })
          // At its time, only while its author can still write here (disabled, removed or made a viewer: failed).
          const refusal = yield* authorRefusal(request.author, projectId)
          if (refusal !== null) return yield* new Forbidden({ message: refusal })
          const stillCounted = (yield* standing.counted(projectId, request.approvals)).length
          if (stillCounted < request.requiredApprovals) return yield* new ResourceConflict({ message: ChangeRequestMessages.notApproved(stillCounted, request.requiredApprovals) })
        }
        // A flag that moved on, or a segment its rules name that changed since it was pinned: 409.
        const moved = yield* movedOn(projectId, request)
        if (Option.isSome(moved)) return yield* moved.value
        const applied = { ...request, status: "applied" as const, appliedAt: now, appliedBy: actor, failure: null, updatedAt: now, version: request.version + 1 }
        const saved = yield* trySave(request, applied, "change_request.applied")
        if (Option.isNone(saved)) {
          if (attempt === 5) return yield* changedMeanwhile
          continue
        }
        for (const change of request.changes) {
          yield* flags.replaceTargeting(projectId, change.flagKey, targetingInputOf(request.environment, change.after), {
            ifMatch: change.baseVersion,
            changeRequestId: request.id
          }).pipe(
            Effect.catchTags({
              // Checked just above in this transaction: only a write slipping in between could move a version.
              PreconditionFailed: () => Effect.fail(new ResourceConflict({ message: ChangeRequestMessages.movedOn([change.flagKey]) })),
              // The request itself is the approval: its apply is never refused for protection.
              ChangeRequestRequired: Effect.die
            })
          )
        }
        // Then the plans, on the targeting as the changes left it (PlanChecks.ts).
        yield* applyPlans(projectId, request)
        return saved.value
      }
    })

  const apply = Effect.fn("ChangeRequests.apply")(function* (projectId: string, id: string) {
    yield* allowedOn("ChangeRequests.apply", projectId, id)
    return yield* writes.serving(projectId, ({ now }) => applyWithin(projectId, id, true, now))
  })

  const applyDue = (due: StoredChangeRequest) =>
    Effect.gen(function* () {
      const actor: Actor = {
        type: "schedule",
        ...(due.author.userId === undefined ? {} : { userId: due.author.userId }),
        ...(due.author.email === undefined ? {} : { email: due.author.email }),
        ...(due.author.keyId === undefined ? {} : { keyId: due.author.keyId }),
        ...(due.author.keyName === undefined ? {} : { keyName: due.author.keyName })
      }
      const attempt = yield* Effect.either(writes.serving(due.projectId, ({ now }) => applyWithin(due.projectId, due.id, false, now)).pipe(Effect.provideService(CurrentActor, actor)))
      if (Either.isRight(attempt)) return "applied" as const
      const error = attempt.left
      if (error._tag === "StorageError") return yield* error
      // Why it failed, recorded on the request (still approved) if it is still the one that was due.
      // The actor around the whole write: the writer appends the audit entry after the body.
      return yield* writes.record(due.projectId, ({ now }) =>
        Effect.gen(function* () {
          const current = yield* repo.get(due.projectId, due.id)
          if (Option.isNone(current) || current.value.status !== "approved" || current.value.version !== due.version) return { value: "lost" as const }
          const failed = { ...current.value, failure: error.message, updatedAt: now, version: current.value.version + 1 }
          if (!(yield* repo.replace(failed, current.value.version))) return { value: "lost" as const }
          return {
            value: "failed" as const,
            audit: [{ action: "change_request.failed", resource: { type: "change_request", key: due.id }, environment: due.environment, before: recordOf(current.value), after: recordOf(failed) }]
          } satisfies Writes.Recorded<"failed">
        })).pipe(Effect.provideService(CurrentActor, actor))
    }).pipe(Effect.withSpan("ChangeRequests.applyDue", { root: true, attributes: { changeRequestId: due.id } }))

  return ChangeRequests.of({ open, list, get, update, approve, reject, cancel, apply, applyDue })
})

export const layer = Layer.effect(ChangeRequests, make)
