import * as Schema from "effect/Schema"
import { Timestamp } from "../definitions/Ids.js"
import { documentName } from "../DocumentName.js"
import { Actor } from "./Actor.js"

/** The kinds of resource a management write changes, as the audit log names them. */
export const AuditResourceType = Schema.Literal("project", "environment", "flag", "segment", "webhook", "key", "schedule", "user", "member", "change_request", "experiment", "release_plan")
export type AuditResourceType = typeof AuditResourceType.Type

/** What a write changed: its kind and its key (a flag's key, a webhook's or API key's id, ...). */
export const AuditResource = Schema.Struct({
  type: AuditResourceType,
  key: Schema.String
})
export type AuditResource = typeof AuditResource.Type

/** A resource as the API shows it (never a secret or a key hash); `null` where there is none. */
const Shown = Schema.Unknown.annotations({
  description: "The resource as the API shows it (null before a creation and after a deletion)."
})

/**
 * One management write: who (`actor`), what (`action`, the event name such as `flag.created` or
 * `key.revoked`, and `resource`), when (`at`), where (`environment`, for a write to one
 * environment), and the resource before and after. Entries are appended in the transaction of
 * the write and never changed.
 */
export const AuditEntry = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  at: Timestamp,
  actor: Actor,
  action: Schema.String,
  resource: AuditResource,
  environment: Schema.optional(Schema.String),
  /** The change request this write applied (its applier is the actor). */
  changeRequestId: Schema.optional(Schema.String),
  /** Why a write that followed from another happened (a key revoked because its maker was disabled, say). */
  reason: Schema.optional(Schema.String),
  before: Shown,
  after: Shown
}).annotations(documentName("AuditEntry"))
export type AuditEntry = typeof AuditEntry.Type

/** The filters of a project's audit log; absent ones match everything. */
export interface AuditFilter {
  readonly resourceType?: AuditResourceType | undefined
  readonly resourceKey?: string | undefined
  readonly environment?: string | undefined
}

/** Whether `entry` passes `filter` (the memory adapter's filter, and the rule the SQL one follows). */
export const matchesFilter = (entry: AuditEntry, filter: AuditFilter): boolean =>
  (filter.resourceType === undefined || entry.resource.type === filter.resourceType) &&
  (filter.resourceKey === undefined || entry.resource.key === filter.resourceKey) &&
  (filter.environment === undefined || entry.environment === filter.environment)
