/**
 * A flag as the management API shows it: the stored flag, each environment's configuration with
 * when the flag was last evaluated there, and whether the flag is stale. The stale rule lives
 * here and nowhere else.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { Flag } from "../definitions/Flag.js"
import { EnvironmentConfig } from "../definitions/Targeting.js"

/** The default of FLAGPORT_STALE_AFTER_DAYS. */
export const DEFAULT_STALE_AFTER_DAYS = 30

const DAY_MS = 86_400_000

export const ConfigWithUsage = Schema.Struct({
  ...EnvironmentConfig.fields,
  version: Schema.Number.annotations({
    description: "This configuration's version: the flag's version as of the last change to this environment's targeting or to the flag's variations (a change elsewhere leaves it). Its `ETag` (GET .../targeting?environment=) is `\"<environmentKey>:<version>\"`; send that in `If-Match` on PUT .../targeting to conflict only with changes to this environment."
  }),
  lastEvaluatedAt: Schema.NullOr(Schema.String).annotations({
    description:
      "When the flag was last evaluated in this environment (server-side or reported by an SDK), including as a prerequisite of a flag evaluated there; null: never."
  })
}).annotations(documentName("TargetingWithUsage"))
export type ConfigWithUsage = typeof ConfigWithUsage.Type

export const FlagWithUsage = Schema.Struct({
  ...Flag.fields,
  configs: Schema.Array(ConfigWithUsage),
  stale: Schema.Boolean.annotations({
    description: "Not evaluated in any environment for FLAGPORT_STALE_AFTER_DAYS (default 30) days, and created longer ago than that."
  })
}).annotations(documentName("FlagWithUsage"))
export type FlagWithUsage = typeof FlagWithUsage.Type

/**
 * A flag is stale when it was created more than `staleAfterDays` ago and no environment has
 * evaluated it within that time (never evaluated counts as not within).
 */
export const isStale = (
  createdAt: string,
  lastEvaluatedAts: ReadonlyArray<string | null>,
  now: number,
  staleAfterDays: number
): boolean => {
  const cutoff = now - staleAfterDays * DAY_MS
  if (Date.parse(createdAt) > cutoff) return false
  return lastEvaluatedAts.every((at) => at === null || Date.parse(at) <= cutoff)
}

/**
 * The last evaluation of each flag in each environment, counting an evaluation of a flag as one of
 * every flag it requires there, directly or through others: its prerequisites are checked when it
 * is evaluated (while it is enabled), but only its own result is counted. So a flag that gates
 * others is never stale while they are in use (it could not be deleted while they require it).
 * `own` gives a flag's own last evaluation; `flags` must hold every flag of the project that
 * requires another (any of them may require the ones shown; a flag requiring none adds nothing). A cycle (only possible in data written around the API)
 * ends the walk where it closes.
 */
export const lastEvaluatedWithDependents = (
  flags: ReadonlyArray<Flag>,
  own: (flagKey: string, environmentKey: string) => string | null
): ((flagKey: string, environmentKey: string) => string | null) => {
  // environment -> required flag -> the flags that require it there
  const dependents = new Map<string, Map<string, Array<string>>>()
  for (const flag of flags) {
    for (const config of flag.configs) {
      for (const prerequisite of config.prerequisites ?? []) {
        let byFlag = dependents.get(config.environmentKey)
        if (byFlag === undefined) dependents.set(config.environmentKey, (byFlag = new Map()))
        const list = byFlag.get(prerequisite.flagKey)
        if (list === undefined) byFlag.set(prerequisite.flagKey, [flag.key])
        else list.push(flag.key)
      }
    }
  }
  const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : Date.parse(b) > Date.parse(a) ? b : a)
  const memo = new Map<string, string | null>()
  const effective = (flagKey: string, environmentKey: string, visiting: Set<string>): string | null => {
    const id = `${flagKey}\u0000${environmentKey}`
    const known = memo.get(id)
    if (known !== undefined || memo.has(id)) return known ?? null
    if (visiting.has(flagKey)) return own(flagKey, environmentKey)
    visiting.add(flagKey)
    let at = own(flagKey, environmentKey)
    for (const dependent of dependents.get(environmentKey)?.get(flagKey) ?? []) at = later(at, effective(dependent, environmentKey, visiting))
    visiting.delete(flagKey)
    memo.set(id, at)
    return at
  }
  return (flagKey, environmentKey) => effective(flagKey, environmentKey, new Set())
}

/** `flag` with each configuration's last evaluation (`lastEvaluated(environmentKey)`) and its stale status. */
export const withUsage = (
  flag: Flag,
  lastEvaluated: (environmentKey: string) => string | null,
  now: number,
  staleAfterDays: number
): FlagWithUsage => {
  // Storage sets every read configuration's version and each write sets the ones it changes; the
  // flag's own version is only the bound a configuration never passes.
  const configs = flag.configs.map((config) => ({ ...config, version: config.version ?? flag.version, lastEvaluatedAt: lastEvaluated(config.environmentKey) }))
  return { ...flag, configs, stale: isStale(flag.createdAt, configs.map((c) => c.lastEvaluatedAt), now, staleAfterDays) }
}
