/**
 * A flag as the management API shows it: the stored flag, each environment's configuration with
 * when the flag was last evaluated there, and whether the flag is stale. The stale rule lives
 * here and nowhere else.
 */
import { Schema } from "effect"
import { documentName } from "../DocumentName.js"
import { Flag } from "../definitions/Flag.js"
import { EnvironmentConfig } from "../definitions/Targeting.js"

/** The default of FLAGPORT_STALE_AFTER_DAYS. */
export const DEFAULT_STALE_AFTER_DAYS = 30

const DAY_MS = 86_400_000

export const ConfigWithUsage = Schema.Struct({
  ...EnvironmentConfig.fields,
  lastEvaluatedAt: Schema.NullOr(Schema.String).annotations({
    description: "When the flag was last evaluated in this environment (server-side or reported by an SDK); null: never."
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

/** `flag` with each configuration's last evaluation (`lastEvaluated(environmentKey)`) and its stale status. */
export const withUsage = (
  flag: Flag,
  lastEvaluated: (environmentKey: string) => string | null,
  now: number,
  staleAfterDays: number
): FlagWithUsage => {
  const configs = flag.configs.map((config) => ({ ...config, lastEvaluatedAt: lastEvaluated(config.environmentKey) }))
  return { ...flag, configs, stale: isStale(flag.createdAt, configs.map((c) => c.lastEvaluatedAt), now, staleAfterDays) }
}
