import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AUDIT_PAGE, type AuditPage, type AuditQuery, decodeCursor, encodeCursor } from "../../domain/audit/AuditPage.js"
import { type ManagementEvent, managementEventOf } from "../../domain/audit/ManagementEvent.js"
import { InvalidRequest, type ResourceNotFound } from "../../domain/Errors.js"
import { AuditLog } from "../../ports/AuditLog.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { requireProject } from "../shared/RequireProject.js"

export interface AuditShape {
  /**
   * One page of a project's audit log, newest first, narrowed by the query's filters. 400 for a
   * `limit` outside 1-200 or a cursor no page answered; 404 for an unknown project.
   */
  readonly list: (projectId: string, query: AuditQuery) => Effect.Effect<AuditPage, InvalidRequest | ResourceNotFound | StorageError>
  /**
   * Where a live reader of the project's events starts: the position of its latest entry (0 when
   * it has none). 404 for an unknown project.
   */
  readonly head: (projectId: string) => Effect.Effect<number, ResourceNotFound | StorageError>
  /** The project's events after `position`, oldest first, at most `limit` (ManagementEvent.ts). */
  readonly eventsAfter: (
    projectId: string,
    position: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly position: number; readonly at: string; readonly event: ManagementEvent }>, StorageError>
}

/** Reading the audit log (writing it is each write use case's job, through AuditTrail.recorder). */
export class Audit extends Context.Tag("@flagport/services/Audit")<Audit, AuditShape>() {}

const invalid = (path: string, message: string) =>
  new InvalidRequest({ message: "Invalid audit query", details: [{ path, message }] })

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const log = yield* AuditLog

  const list = Effect.fn("Audit.list")(function* (projectId: string, query: AuditQuery) {
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
      data: page.map((row) => row.entry),
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last.position) : null
    }
  })

  const head = Effect.fn("Audit.head")(function* (projectId: string) {
    yield* requireProject(projects, projectId)
    const latest = yield* log.list(projectId, {}, 1)
    return latest[0]?.position ?? 0
  })

  const eventsAfter = (projectId: string, position: number, limit: number) =>
    Effect.map(log.after(projectId, position, limit), (rows) =>
      rows.map((row) => ({ position: row.position, at: row.entry.at, event: managementEventOf(row.position, row.entry) })))

  return Audit.of({ list, head, eventsAfter })
})

export const layer = Layer.effect(Audit, make)
