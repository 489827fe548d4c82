/** How the audit log is asked for and how its entries read on the page. */
import type { AuditEntry } from "./types.js"

/** What a page of the log is narrowed to; empty strings mean "any". */
export interface AuditFilter {
  readonly resourceType: string
  readonly resourceKey: string
  readonly environment: string
}

export const ANY: AuditFilter = { resourceType: "", resourceKey: "", environment: "" }

/** The resource types the log knows, for the filter. */
export const RESOURCE_TYPES: ReadonlyArray<string> = ["flag", "segment", "environment", "webhook", "key", "project", "schedule", "user", "member", "change_request", "experiment", "release_plan"]

/** The query string of one page: the filters that are set, and the cursor of the page before. */
export const auditQuery = (filter: AuditFilter, cursor: string | null, limit = 50): string => {
  const params = new URLSearchParams()
  if (filter.resourceType !== "") params.set("resourceType", filter.resourceType)
  if (filter.resourceKey.trim() !== "") params.set("resourceKey", filter.resourceKey.trim())
  if (filter.environment !== "") params.set("environment", filter.environment)
  params.set("limit", String(limit))
  if (cursor !== null) params.set("cursor", cursor)
  return `?${params.toString()}`
}

/** Who made the change, as a person reads it. */
export const actorLabel = (actor: AuditEntry["actor"]): string => {
  const key = actor.keyName !== undefined && actor.keyName !== "" ? `key "${actor.keyName}"` : actor.keyId !== undefined ? `key ${actor.keyId}` : "a key"
  switch (actor.type) {
    case "cli":
      return "command line"
    case "schedule":
      // A person's scheduled change (a schedule or a change request's applyAt) names them, not "a key".
      return actor.keyId === undefined && (actor.email !== undefined || actor.userId !== undefined)
        ? `schedule (made by ${actor.email ?? `person ${actor.userId}`})`
        : `schedule (made with ${key})`
    case "key":
      return key
    case "user":
      return actor.email ?? (actor.userId === undefined ? "a person" : `person ${actor.userId}`)
    case "releasePlan":
      return `release plan ${actor.id ?? ""}`.trim() + (actor.startedBy === undefined ? "" : ` (started by ${actorLabel(actor.startedBy)})`)
  }
}
