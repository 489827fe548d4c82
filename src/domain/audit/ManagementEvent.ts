/**
 * One event of the management events stream (`GET /v1/projects/{p}/events`): a summary of one
 * audit entry, so every write the audit log records (flags, targeting, segments, environments,
 * schedules, change requests, keys, webhooks, members) is announced once, with who made it and
 * when, on every server process (the audit log is in the database; the change feed only says
 * when to read it). The resource's states are left out: a reader fetches what it shows.
 */
import * as Schema from "effect/Schema"
import { Timestamp } from "../definitions/Ids.js"
import { documentName } from "../DocumentName.js"
import { Actor } from "./Actor.js"
import { type AuditEntry, AuditResource } from "./AuditEntry.js"
import { asRecord, type JsonRecord } from "../JsonRecord.js"

export const ManagementEvent = Schema.Struct({
  id: Schema.String.annotations({
    description: "The event's place in the project's audit log; send it back as `Last-Event-ID` to resume after it."
  }),
  kind: Schema.String.annotations({
    description: "What happened, as the audit log names it: `flag.created`, `flag.updated`, `flag.deleted`, `targeting.updated`, `segment.*`, `environment.*`, `schedule.*`, `change_request.*`, `key.*`, `webhook.*`, `member.*`..."
  }),
  resource: AuditResource,
  flagKeys: Schema.Array(Schema.String).annotations({ description: "The flags the change concerns (a flag's own change, a schedule's flag, a change request's flags)." }),
  environments: Schema.Array(Schema.String).annotations({
    description: "The environments whose configuration of those flags changed (every configuration of a created or deleted flag, all of them when variations changed); the environment of a change to one (a schedule, a change request, an environment); empty otherwise."
  }),
  version: Schema.NullOr(Schema.Number).annotations({ description: "A flag's version after the change (its new `ETag`); null for a deleted flag and for other resources." }),
  configVersions: Schema.Record({ key: Schema.String, value: Schema.Number }).annotations({
    description: "For a flag: each environment whose configuration changed, with that configuration's new version (its targeting `ETag` is `\"<environment>:<version>\"`)."
  }),
  actor: Actor,
  at: Timestamp,
  changeRequestId: Schema.optional(Schema.String)
}).annotations(documentName("ManagementEvent"))
export type ManagementEvent = typeof ManagementEvent.Type

type Loose = JsonRecord | null

const numberOf = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null)

const configsOf = (flag: Loose): ReadonlyArray<{ readonly environmentKey: string; readonly version: number | null }> => {
  const configs = flag?.["configs"]
  if (!Array.isArray(configs)) return []
  return configs.flatMap((config) => {
    const record = asRecord(config)
    const environmentKey = record?.["environmentKey"]
    return typeof environmentKey === "string" ? [{ environmentKey, version: numberOf(record?.["version"]) }] : []
  })
}

const stringsOf = (values: ReadonlyArray<unknown>): ReadonlyArray<string> => [...new Set(values.filter((v): v is string => typeof v === "string"))]

/**
 * The configurations of a flag that a write changed: those whose version moved (or that appeared
 * or went away); for a flag created or deleted, all of them.
 */
const changedConfigs = (before: Loose, after: Loose, environment: string | undefined) => {
  const old = new Map(configsOf(before).map((c) => [c.environmentKey, c.version]))
  const now = configsOf(after)
  if (after === null) return [...old.keys()].map((environmentKey) => ({ environmentKey, version: null }))
  if (environment !== undefined) return now.filter((c) => c.environmentKey === environment)
  return now.filter((c) => !old.has(c.environmentKey) || old.get(c.environmentKey) !== c.version)
}

/** The event of the audit entry at `position`. */
export const managementEventOf = (position: number, entry: AuditEntry): ManagementEvent => {
  const before = asRecord(entry.before)
  const after = asRecord(entry.after)
  const isFlag = entry.resource.type === "flag"
  const configs = isFlag ? changedConfigs(before, after, entry.environment) : []
  const flagKeys = isFlag
    ? [entry.resource.key]
    : entry.resource.type === "schedule"
    ? stringsOf([after?.["flagKey"], before?.["flagKey"]])
    : entry.resource.type === "change_request"
    ? stringsOf([...[after, before].flatMap((request) => (Array.isArray(request?.["changes"]) ? request["changes"] : []).map((c) => asRecord(c)?.["flagKey"]))])
    : []
  const environments = isFlag
    ? configs.map((c) => c.environmentKey)
    : entry.environment === undefined ? [] : [entry.environment]
  return {
    id: String(position),
    kind: entry.action,
    resource: entry.resource,
    flagKeys,
    environments,
    version: isFlag ? numberOf(after?.["version"]) : null,
    configVersions: Object.fromEntries(configs.flatMap((c) => (c.version === null ? [] : [[c.environmentKey, c.version]]))),
    actor: entry.actor,
    at: entry.at,
    ...(entry.changeRequestId === undefined ? {} : { changeRequestId: entry.changeRequestId })
  }
}
