/**
 * Which flags a new configuration changes, for `client.on("change", keys)` and OpenFeature's
 * `flagsChanged`: added and removed flags, flags whose `version` differs (when both sides carry
 * one; else their definitions are compared deeply), and flags whose rules reach a segment that
 * changed (a segment change alters what a flag serves without changing the flag's version).
 */
import { type ConfigSnapshot, plainConditions, type SnapshotFlag } from "./Core.js"

type Versioned = SnapshotFlag & { readonly version?: unknown }

const deepEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keysA = Object.keys(a)
  const keysB = Object.keys(b)
  if (keysA.length !== keysB.length) return false
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false
    if (!deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
  }
  return true
}

const byKey = <A extends { readonly key: string }>(items: ReadonlyArray<A>): Map<string, A> => new Map(items.map((item) => [item.key, item]))

const flagChanged = (before: Versioned, after: Versioned): boolean =>
  typeof before.version === "number" && typeof after.version === "number" ? before.version !== after.version : !deepEqual(before, after)

const reachesAny = (flag: SnapshotFlag, segments: ReadonlySet<string>): boolean =>
  flag.rules.some((rule) =>
    plainConditions(rule.conditions).some(
      (c) => (c.operator === "inSegment" || c.operator === "notInSegment") && c.values.some((v) => typeof v === "string" && segments.has(v))
    )
  )

/** The keys of the flags whose evaluation may differ between `before` and `after`, in `after`'s order (removed flags last). */
export const changedKeys = (before: ConfigSnapshot, after: ConfigSnapshot): ReadonlyArray<string> => {
  const oldFlags = byKey(before.flags)
  const newFlags = byKey(after.flags)
  const oldSegments = byKey(before.segments)
  const newSegments = byKey(after.segments)
  const changedSegments = new Set<string>()
  for (const key of new Set([...oldSegments.keys(), ...newSegments.keys()])) {
    if (!deepEqual(oldSegments.get(key), newSegments.get(key))) changedSegments.add(key)
  }
  const changed: Array<string> = []
  for (const [key, flag] of newFlags) {
    const old = oldFlags.get(key)
    if (old === undefined || flagChanged(old, flag) || (changedSegments.size > 0 && reachesAny(flag, changedSegments))) changed.push(key)
  }
  for (const key of oldFlags.keys()) if (!newFlags.has(key)) changed.push(key)
  return changed
}
