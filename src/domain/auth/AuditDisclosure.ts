/**
 * What a reader of a project's audit log and events stream learns of the project admins' own
 * configuration. Webhooks, keys and members are `manage` (Permissions.ts): viewers and editors may
 * not read them, so the log must not show them either (a webhook's URL is often its credential, a
 * member's state names their email and role, a person's state their sign-in times). A reader
 * without `manage` in the project sees an entry about those (and about other people) with its
 * resource id and its action only: who did it and when, not what it was or became. The one rule of
 * `GET .../audit` and of `GET .../events` (Audit.ts); people see their own entries whole.
 *
 * Pure and total.
 */
import * as Either from "effect/Either"
import type { AuditEntry, AuditResourceType } from "../audit/AuditEntry.js"
import type { ManagementEvent } from "../audit/ManagementEvent.js"
import { authorizeCaller } from "./Access.js"
import type { Caller } from "./Caller.js"

/** Who reads: whether they may `manage` the project, and the person they are (null: a key, the operator). */
export interface Reader {
  readonly manages: boolean
  readonly userId: string | null
}

/** The reader `caller` is in `projectId`. */
export const readerOf = (caller: Caller, projectId: string): Reader => ({
  manages: Either.isRight(authorizeCaller(caller, { _tag: "Project", permission: "manage" }, projectId)),
  userId: caller._tag === "Person" ? caller.userId : null
})

/** Whether two readers see the same of every entry. */
export const sameReader = (a: Reader, b: Reader): boolean => a.manages === b.manages && a.userId === b.userId

/** The resources whose states are the project admins' to read. */
const ADMINS_ONLY: ReadonlySet<AuditResourceType> = new Set(["webhook", "key", "member", "user"])

/** Whether `reader` sees only the id and the action of what `resource` names (a person's own entries are theirs). */
export const withheldFrom = (reader: Reader, resource: { readonly type: AuditResourceType; readonly key: string }): boolean =>
  !reader.manages && ADMINS_ONLY.has(resource.type) &&
  !((resource.type === "user" || resource.type === "member") && resource.key === reader.userId)

/** An audit entry as `reader` may see it: for a withheld one, no states and no environment (a key's binding). */
export const auditEntryDisclosed = (reader: Reader, entry: AuditEntry): AuditEntry => {
  if (!withheldFrom(reader, entry.resource)) return entry
  const { environment: _environment, ...rest } = entry
  return { ...rest, before: null, after: null }
}

/** A management event as `reader` may see it: for a withheld one, its kind, resource, actor and time only. */
export const eventDisclosed = (reader: Reader, event: ManagementEvent): ManagementEvent =>
  withheldFrom(reader, event.resource) ? { ...event, flagKeys: [], environments: [], version: null, configVersions: {} } : event
