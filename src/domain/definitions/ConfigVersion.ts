import type { Variation } from "./Flag.js"
import type { EnvironmentConfig } from "./Targeting.js"

/**
 * The version an environment serves (`version` of a flag in `GET /v1/config`, OFREP metadata,
 * SDK flag metadata): the flag's version as of the last change to what that environment serves,
 * which is the flag's variations and the environment's own configuration. A change to another
 * environment, or to the name or description only, leaves it as it was, so every process serves
 * the same bytes (and ETag) for an environment that did not change.
 */

/** Whether two JSON values are equal (object key order aside). */
export const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as ReadonlyArray<unknown>
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]))
  }
  const left = Object.entries(a).filter(([, v]) => v !== undefined)
  const right = new Map(Object.entries(b).filter(([, v]) => v !== undefined))
  return left.length === right.size && left.every(([k, v]) => right.has(k) && sameJson(v, right.get(k)))
}

/** Whether a write that replaces `before` with `after` changes what some environment serves through the variations. */
export const variationsChanged = (before: ReadonlyArray<Variation>, after: ReadonlyArray<Variation>): boolean =>
  !sameJson(before, after)

/** Whether a configuration serves differently after a write (no prerequisites and an empty list are the same). */
export const servedConfigChanged = (before: EnvironmentConfig, after: EnvironmentConfig): boolean =>
  !sameJson({ ...before, prerequisites: before.prerequisites ?? [], version: undefined }, { ...after, prerequisites: after.prerequisites ?? [], version: undefined })

/**
 * The version a configuration gets when a whole flag is written at `newVersion`: the one it had
 * (`stored`) when neither the variations nor the configuration changed, else `newVersion`.
 */
export const versionAfterWrite = (
  newVersion: number,
  variations: { readonly before: ReadonlyArray<Variation>; readonly after: ReadonlyArray<Variation> },
  stored: { readonly config: EnvironmentConfig; readonly version: number } | undefined,
  after: EnvironmentConfig
): number =>
  stored === undefined || variationsChanged(variations.before, variations.after) || servedConfigChanged(stored.config, after)
    ? newVersion
    : stored.version
