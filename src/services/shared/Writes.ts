/**
 * The one way a management write happens: a use case says what its write is, `Writer` does the
 * steps every write shares. The order, and why, is in docs/internals/architecture.md ("One way to write").
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { Flag } from "../../domain/definitions/Flag.js"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import type { ResourceNotFound } from "../../domain/Errors.js"
import { projectNotFound } from "../../domain/NotFound.js"
import type { ChangeRequestRecord } from "../../domain/changes/ChangeRequest.js"
import type { Experiment } from "../../domain/experiments/Experiment.js"
import type { ReleasePlan } from "../../domain/releaseplans/ReleasePlan.js"
import {
  type ChangeRequestEventType,
  type ExperimentEventType,
  type FlagEventType,
  makeChangeRequestEvent,
  makeExperimentEvent,
  makeFlagEvent,
  makeReleasePlanEvent,
  type ReleasePlanEventType,
  type WebhookEvent
} from "../../domain/webhooks/Webhook.js"
import type { AuditLog } from "../../ports/AuditLog.js"
import { type Change, ChangeFeed } from "../../ports/ChangeFeed.js"
import { EventOutbox } from "../../ports/EventOutbox.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { currentTraceParent } from "../../ports/TraceContext.js"
import { Transactor } from "../../ports/Transactor.js"
import * as AuditTrail from "./AuditTrail.js"

/** A webhook event of the write; its id, project and time are the write's. */
export interface FlagEventDraft {
  readonly type: FlagEventType
  readonly flag: Flag
  readonly environment?: string | undefined
}

/** A change request's webhook event (opened, approved, rejected, applied); its id, project and time are the write's. */
export interface ChangeRequestEventDraft {
  readonly type: ChangeRequestEventType
  readonly changeRequest: ChangeRequestRecord
}

/** An experiment's event (started, stopped); its id, project and time are the write's. */
export interface ExperimentEventDraft {
  readonly type: ExperimentEventType
  readonly experiment: Experiment
}

/** A release plan's event (started, advanced, paused, harmed, completed, cancelled). */
export interface ReleasePlanEventDraft {
  readonly type: ReleasePlanEventType
  readonly releasePlan: ReleasePlan
}

/** The webhook events of writes that serve nothing new. */
export type RecordEventDraft = ChangeRequestEventDraft | ExperimentEventDraft | ReleasePlanEventDraft

/**
 * An audit entry of the write; its time and actor are the write's, and so is its project unless it
 * names one (a person belongs to no project: their entries go to the logs of their projects).
 */
export type AuditDraft = Omit<AuditTrail.AuditChange, "projectId" | "at"> & { readonly projectId?: string }

/** What a write did, as its body answers it: the value the use case returns, and what to record and announce. */
export interface Written<A> {
  readonly value: A
  /** Appended to the outbox (webhooks), in this order. */
  readonly events?: ReadonlyArray<FlagEventDraft | RecordEventDraft>
  /** Appended to the project's audit log, in this order. */
  readonly audit?: ReadonlyArray<AuditDraft>
  /** Announced on the change feed once the outermost transaction has committed. */
  readonly change?: Change
}

/**
 * What a write that serves nothing new did: no flag event (those are about what is served); a
 * change request's or an experiment's write may announce its own events.
 */
export type Recorded<A> = Omit<Written<A>, "events"> & { readonly events?: ReadonlyArray<RecordEventDraft> }

/** The write's single reading of the clock. */
export interface WriteTime {
  /** As a contract timestamp. */
  readonly now: string
  readonly millis: number
}

/** A write to what a project serves also knows the project's new snapshot revision. */
export interface ServingWriteTime extends WriteTime {
  readonly revision: number
}

export interface Writer {
  /**
   * A write that can change what `projectId` serves (flags, targeting, segments, environments):
   * its first statement bumps the project's snapshot revision, which on PostgreSQL also locks the
   * project row, so writes to one project serialize. 404 for an unknown project.
   */
  readonly serving: <A, E, R>(
    projectId: string,
    body: (time: ServingWriteTime) => Effect.Effect<Written<A>, E, R>
  ) => Effect.Effect<A, E | ResourceNotFound | StorageError, R>
  /**
   * A write that serves nothing new (a project's creation, webhooks, keys, schedules, people):
   * recorded in `projectId`'s audit log, or for `null` only in the logs its entries name (a global
   * key belongs to no project and names none).
   */
  readonly record: <A, E, R>(
    projectId: string | null,
    body: (time: WriteTime) => Effect.Effect<Recorded<A>, E, R>
  ) => Effect.Effect<A, E | StorageError, R>
  /**
   * Several use cases' writes as one (a flags-as-code apply, a flagd import): ONE transaction in
   * which `first` runs (what must exist before the project can be locked: the project an apply
   * creates), then the project's write lock is taken (the revision bump of `serving`), then `body`,
   * whose use cases' own writes nest in it as savepoints, each recorded and announced as that use
   * case records it. All or nothing; writes of others to the project wait for it, so what `body`
   * reads under the lock stays true until it commits. 404 for an unknown project.
   */
  readonly spanning: <A, E, R, E2 = never, R2 = never>(
    projectId: string,
    body: Effect.Effect<A, E, R>,
    first?: Effect.Effect<unknown, E2, R2>
  ) => Effect.Effect<A, E | E2 | ResourceNotFound | StorageError, R | R2>
}

/** Everything a write touches: the use cases that write need these ports. */
export type WriterDeps = Transactor | ChangeFeed | ProjectRepository | EventOutbox | AuditLog | IdGenerator

/**
 * The writer every write use case builds once (`const writes = yield* Writes.writer`). One write
 * is one transaction: the body's statements, then its events and audit entries (so a committed
 * write always has them and a rolled back one never does), then, after the outermost commit, its
 * change announced (a host running the use case inside a transaction of its own included).
 */
export const writer: Effect.Effect<Writer, never, WriterDeps> = Effect.gen(function* () {
  const tx = yield* Transactor
  const feed = yield* ChangeFeed
  const projects = yield* ProjectRepository
  const outbox = yield* EventOutbox
  const ids = yield* IdGenerator
  const audit = yield* AuditTrail.recorder

  const eventOf = (id: string, projectId: string, time: WriteTime, event: FlagEventDraft | RecordEventDraft): WebhookEvent =>
    "changeRequest" in event
      ? makeChangeRequestEvent({ id, projectId, occurredAt: time.now, ...event })
      : "experiment" in event
      ? makeExperimentEvent({ id, projectId, occurredAt: time.now, ...event })
      : "releasePlan" in event
      ? makeReleasePlanEvent({ id, projectId, occurredAt: time.now, ...event })
      : makeFlagEvent({ id, projectId, occurredAt: time.now, ...event })

  const events = (projectId: string, time: WriteTime, drafts: ReadonlyArray<FlagEventDraft | RecordEventDraft> = []) =>
    drafts.length === 0 ? Effect.void : Effect.flatMap(currentTraceParent, (traceparent) =>
      Effect.forEach(drafts, (event) =>
        Effect.flatMap(ids.next, (id) =>
          outbox.append(eventOf(id, projectId, time, event), traceparent)), { discard: true }))

  const finish = <A>(projectId: string | null, time: WriteTime, written: Omit<Written<A>, "events">) =>
    Effect.gen(function* () {
      for (const { projectId: own, ...entry } of written.audit ?? []) {
        const target = own ?? projectId
        if (target !== null) yield* audit({ ...entry, projectId: target, at: time.now })
      }
      if (written.change !== undefined) yield* tx.afterCommit(feed.publish(written.change))
      return written.value
    })

  const clock = Effect.map(Clock.currentTimeMillis, (millis): WriteTime => ({ now: formatTimestamp(millis), millis }))

  const serving: Writer["serving"] = (projectId, body) =>
    Effect.flatMap(clock, (time) =>
      tx.withTransaction(
        projects.bumpRevision(projectId).pipe(
          Effect.catchTag("NotFound", () => Effect.fail(projectNotFound(projectId))),
          Effect.flatMap((revision) => body({ ...time, revision })),
          Effect.flatMap((written) => Effect.zipRight(events(projectId, time, written.events), finish(projectId, time, written)))
        )
      )
    )

  const record: Writer["record"] = (projectId, body) =>
    Effect.flatMap(clock, (time) =>
      tx.withTransaction(
        Effect.flatMap(body(time), (written) =>
          Effect.zipRight(projectId === null ? Effect.void : events(projectId, time, written.events), finish(projectId, time, written)))
      ))

  const spanning: Writer["spanning"] = (projectId, body, first) =>
    tx.withTransaction(Effect.zipRight(first ?? Effect.void, serving(projectId, () => Effect.map(body, (value) => ({ value })))))

  return { serving, record, spanning }
})
