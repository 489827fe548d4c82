/**
 * A configuration ready to serve: the checked body, its compiled form, and what the typed getters
 * and the OpenFeature provider need beside the evaluator (flag versions, the flags whose type
 * cannot be told from the served value). Built once per configuration, never per evaluation.
 */
import { compile, type CompiledSnapshot, type ConfigSnapshot } from "./Core.js"
import type { FlagType } from "./Types.js"

export interface Installed {
  readonly snapshot: ConfigSnapshot
  readonly compiled: CompiledSnapshot
  /** The ETag the server sent with it (none for a bootstrap configuration). */
  readonly etag: string | undefined
  readonly types: ReadonlyMap<string, FlagType>
  readonly versions: ReadonlyMap<string, number>
  /**
   * `json` flags with a boolean, string or number variation. For every other flag the served
   * value's `typeof` tells the flag's type, so the typed getters need no lookup; these few (null
   * when there are none) are checked against their declared type.
   */
  readonly ambiguous: ReadonlySet<string> | null
}

const isScalar = (value: unknown): boolean => typeof value === "boolean" || typeof value === "string" || typeof value === "number"

export const install = (snapshot: ConfigSnapshot, etag: string | undefined): Installed => {
  const types = new Map<string, FlagType>()
  const versions = new Map<string, number>()
  const ambiguous = new Set<string>()
  for (const flag of snapshot.flags) {
    if (types.has(flag.key)) continue // the evaluator serves the first of duplicate keys
    types.set(flag.key, flag.type)
    const version = (flag as { readonly version?: unknown }).version
    if (typeof version === "number") versions.set(flag.key, version)
    if (flag.type === "json" && flag.variations.some((v) => isScalar(v.value))) ambiguous.add(flag.key)
  }
  return { snapshot, compiled: compile(snapshot), etag, types, versions, ambiguous: ambiguous.size === 0 ? null : ambiguous }
}
