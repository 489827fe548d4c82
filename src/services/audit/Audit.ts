import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AUDIT_PAGE, type AuditPage, type AuditQuery, decodeCursor, encodeCursor } from "../../domain/audit/AuditPage.js"
import { type ManagementEvent, managementEventOf } from "../../domain/audit/ManagementEvent.js"
import { auditEntryDisclosed, eventDisclosed, type Reader, readerOf, sameReader } from "../../domain/auth/AuditDisclosure.js"
import { auditEntrySeen, eventSeen } from "../../domain/auth/EnvironmentView.js"
import { type Forbidden, InvalidRequest, type ResourceNotFound } from "../../domain/Errors.js"
import { AuditLog } from "../../ports/AuditLog.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"

/** A live reader of a project's events: where it starts, and each event as its caller sees it. */
export interface Following {
  /** The position of the project's latest entry (0 when it has none): the events after it are new. */
  readonly from: number
  /** The event as the caller sees it (EnvironmentView.eventSeen), or undefined when it is not theirs to see. */
  readonly view: (event: ManagementEvent) => ManagementEvent | undefined
  /** What the caller was allowed to read when the reader started (`view` judges by it): `mayFollow` asks it again. */
  readonly reader: Reader
}

/**
 * Reading the audit log needs `read` in the project (domain/auth/Permissions.ts); a key bound to an
 * environment reads the entries and events of its environment and of none (a flag's name, a
 * segment), flags in them with its configuration only (EnvironmentView.ts); naming another
 * environment is 403.
 */
export interface AuditShape {
  /**
   * One page of a project's audit log, newest first, narrowed by the query's filters, as the
   * caller sees it (a bound key's page leaves other environments' entries out, so it may hold fewer
   * than `limit`: follow `nextCursor`). A caller without `manage` in the project sees entries about
   * webhooks, keys, members and other people with their resource id and action only (AuditDisclosure.ts). 400 for a `limit` outside 1-200 or a cursor no page
   * answered; 404 for an unknown project.
   */
  readonly list: (projectId: string, query: AuditQuery) => Effect.Effect<AuditPage, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
  /**
   * Where a live reader of the project's events starts, and what of them its caller sees (its
   * environment's, and of webhooks, keys, members and other people only the kind and the resource
   * without `manage`: AuditDisclosure.ts). 404 for an unknown project.
   */
  readonly follow: (projectId: string) => Effect.Effect<Following, ResourceNotFound | Forbidden | StorageError>
  /**
   * Whether the caller may (still) follow the project's events: asked again while a stream stays
   * open. With the `reader` it started as, also whether it still reads as much and no more (a role
   * changed since: no, and the reader starts again, seeing what its role now shows). Reads nothing.
   */
  readonly mayFollow: (projectId: string, startedAs?: Reader) => Effect.Effect<boolean>
  /**
   * The project's events after `position`, in commit order, at most `limit` (ManagementEvent.ts),
   * as they are: read once for every follower of the project, each of whom sees them through its
   * `view`. Going on from the last position read misses nothing (ports/AuditLog.ts).
   */
  readonly eventsAfter: (
    projectId: string,
    position: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly position: number; readonly event: ManagementEvent }>, StorageError>
}

/** Reading the audit log (writing it is each write use case's job, through AuditTrail.recorder). */
export class Audit extends Context.Tag("@flagport/services/Audit")<Audit, AuditShape>() {}

const invalid = (path: string, message: string) =>
  new InvalidRequest({ message: "Invalid audit query", details: [{ path, message }] })

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const log = yield* AuditLog

  const list = Effect.fn("Audit.list")(function* (projectId: string, query: AuditQuery) {
    const { caller, seen } = yield* authorize("Audit.list", projectId, query.environment === undefined ? [] : [query.environment])
    const reader = readerOf(caller, projectId)
    const limit = query.limit ?? AUDIT_PAGE.default
    if (!Number.isInteger(limit) || limit < AUDIT_PAGE.min || limit > AUDIT_PAGE.max) {
      return yield* invalid("limit", `must be a whole number from ${AUDIT_PAGE.min} to ${AUDIT_PAGE.max}`)
    }
    const before = query.cursor === undefined ? Option.none<number>() : decodeCursor(query.cursor)
    if (query.cursor !== undefined && Option.isNone(before)) return yield* invalid("cursor", "is not a cursor this endpoint answered")
    yield* requireProject(projects, projectId)
    const filter = { resourceType: query.resourceType, resourceKey: query.resourceKey, environment: query.environment }
    // One more than the page: whether it exists says whether there is a next page.
    const rows = yield* log.list(projectId, filter, limit + 1, Option.getOrUndefined(before))
    const page = rows.slice(0, limit)
    const last = page[page.length - 1]
    return {
      data: page.flatMap((row) => {
        const entry = auditEntrySeen(seen, row.entry)
        return entry === undefined ? [] : [auditEntryDisclosed(reader, entry)]
      }),
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.position) : null
    }
  })

  const follow = Effect.fn("Audit.follow")(function* (projectId: string) {
    const { caller, seen } = yield* authorize("Audit.follow", projectId)
    const reader = readerOf(caller, projectId)
    yield* requireProject(projects, projectId)
    const latest = yield* log.list(projectId, {}, 1)
    const view = (event: ManagementEvent) => {
      const inView = eventSeen(seen, event)
      return inView === undefined ? undefined : eventDisclosed(reader, inView)
    }
    return { from: latest[0]?.position ?? 0, view, reader }
  })

  const mayFollow = (projectId: string, startedAs?: Reader) =>
    authorize("Audit.follow", projectId).pipe(
      Effect.map(({ caller }) => startedAs === undefined || sameReader(startedAs, readerOf(caller, projectId))),
      Effect.orElseSucceed(() => false)
    )

  const eventsAfter = (projectId: string, position: number, limit: number) =>
    Effect.map(log.after(projectId, position, limit), (rows) =>
      rows.map((row) => ({ position: row.position, event: managementEventOf(row.position, row.entry) })))

  return Audit.of({ list, follow, mayFollow, eventsAfter })
})

export const layer = Layer.effect(Audit, make)
