/**
 * What a caller sees of a project's environment-specific data: everything for people and unbound
 * keys; for a key bound to an environment, that environment only (the rule of
 * Policy.authorizeEnvironmentRead, applied to answers that hold several environments). A flag
 * keeps its shape with the other environments' configurations simply absent; records of another
 * environment (a schedule, a change request, an audit entry, an event, an API key) are left out.
 *
 * `seen` is the environment the caller sees (`Policy.boundEnvironment`): null sees everything.
 */
import type { AuditEntry } from "../audit/AuditEntry.js"
import { type ManagementEvent, managementEventOf } from "../audit/ManagementEvent.js"
import { asRecord } from "../JsonRecord.js"

/** The environment a caller sees, or null for every one (Policy.boundEnvironment). */
export type Seen = string | null

/** A flag's configurations (a stored one's, or one of the audit log's states) that `seen` sees: its own only. */
const configsSeen = <C>(seen: string, configs: ReadonlyArray<C>): Array<C> => configs.filter((config) => asRecord(config)?.["environmentKey"] === seen)

/** A flag with only the configuration of `seen` (every configuration when null). */
export const flagSeen = <F extends { readonly configs: ReadonlyArray<{ readonly environmentKey: string }> }>(seen: Seen, flag: F): F =>
  seen === null ? flag : { ...flag, configs: configsSeen(seen, flag.configs) }

/** Whether a record of one environment (a schedule, a change request) is seen. */
export const recordSeen = (seen: Seen, record: { readonly environment: string }): boolean => seen === null || record.environment === seen

/**
 * Whether an API key is seen: a bound caller sees only the keys bound to its own environment (itself
 * among them). An unbound key is not "of no environment" (as a segment is) but of every one, the
 * others included, so it is left out as theirs are; the same reach as making and revoking keys
 * (Policy.authorizeKeyCreation, Policy.authorizeKeyRevocation), so a bound key lists exactly the
 * keys it may revoke.
 */
export const keySeen = (seen: Seen, key: { readonly environment: string | null }): boolean => seen === null || key.environment === seen

/**
 * The environment a state of the audit log (a schedule, a change request, a key...) names, or null
 * when it names none (a flag; an unbound key, as are keys made before binding existed).
 */
const environmentOf = (state: unknown): string | null => {
  const environment = asRecord(state)?.["environment"]
  return typeof environment === "string" ? environment : null
}

/** Whether a state of the audit log belongs to another environment. */
const ofAnotherEnvironment = (seen: string, state: unknown): boolean => {
  const environment = environmentOf(state)
  return environment !== null && environment !== seen
}

/** A state as `seen` sees it: a flag's other configurations left out; any other state as it is. */
const stateSeen = (seen: string, state: unknown): unknown => {
  const record = asRecord(state)
  return record !== null && Array.isArray(record["configs"])
    ? { ...record, configs: configsSeen(seen, record["configs"]) }
    : state
}

/**
 * An audit entry as `seen` sees it, or undefined when it is another environment's: a write named
 * to another environment, a flag write that changed only other environments' configurations (a
 * flags-as-code apply, say), a schedule, change request or key of another environment, or an
 * unbound key (`keySeen`: the key list leaves it out too). What remains shows flags with the seen
 * environment's configuration only.
 */
export const auditEntrySeen = (seen: Seen, entry: AuditEntry): AuditEntry | undefined => {
  if (seen === null) return entry
  if (entry.environment !== undefined && entry.environment !== seen) return undefined
  if (entry.resource.type === "key" && !keySeen(seen, { environment: environmentOf(entry.after ?? entry.before) })) return undefined
  if (ofAnotherEnvironment(seen, entry.before) || ofAnotherEnvironment(seen, entry.after)) return undefined
  const touched = managementEventOf(0, entry).environments
  if (touched.length > 0 && !touched.includes(seen)) return undefined
  return { ...entry, before: stateSeen(seen, entry.before), after: stateSeen(seen, entry.after) }
}

/**
 * A management event as `seen` sees it, or undefined when it concerns other environments only, or
 * an unbound key (a key's event names the key's environment when it has one, as its audit entry
 * does, so a key's event naming none is an unbound key's; `keySeen`): its environments and
 * configuration versions narrowed to the seen one.
 */
export const eventSeen = (seen: Seen, event: ManagementEvent): ManagementEvent | undefined => {
  if (seen === null) return event
  if (event.environments.length > 0 && !event.environments.includes(seen)) return undefined
  if (event.resource.type === "key" && !keySeen(seen, { environment: event.environments[0] ?? null })) return undefined
  return {
    ...event,
    environments: event.environments.filter((environment) => environment === seen),
    configVersions: Object.hasOwn(event.configVersions, seen) ? { [seen]: event.configVersions[seen]! } : {}
  }
}
