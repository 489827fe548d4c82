/**
 * What a typed evaluation returns, from an evaluator result and the flag's entry: the flag's
 * value, or the caller's fallback with an error code that says why. Shared by `client.detail`
 * and the OpenFeature provider.
 */
import { type EvaluationResult, servedBySplit, staticFallthrough } from "./Core.js"
import type { FlagEntry } from "./Installed.js"
import type { Detail, ErrorCode, FlagType } from "./Types.js"

export const errorDetail = <T>(flagKey: string, fallback: T, errorCode: ErrorCode, error: string, version?: number): Detail<T> => ({
  flagKey,
  value: fallback,
  variationKey: null,
  reason: { kind: "ERROR", error },
  errorCode,
  ...(version === undefined ? {} : { version })
})

/** The flag type a fallback suggests: `detail(key, ctx, false)` asks for a boolean flag. */
export const typeOfFallback = (fallback: unknown): FlagType =>
  typeof fallback === "boolean" ? "boolean" : typeof fallback === "string" ? "string" : typeof fallback === "number" ? "number" : "json"

/** The message says what `errorCode` does not (which flag, where); it does not repeat the code. */
export const notFound = <T>(flagKey: string, fallback: T): Detail<T> =>
  errorDetail(flagKey, fallback, "FLAG_NOT_FOUND", `no flag ${JSON.stringify(flagKey)} in this environment`)

export const toDetail = <T>(entry: FlagEntry, flagKey: string, type: FlagType, fallback: T, result: EvaluationResult): Detail<T> => {
  const { version } = entry
  const reason = result.reason
  if (reason.kind === "ERROR") {
    const error = reason.error ?? "the flag cannot be evaluated"
    // A segment's key list still loading (KeyLists.ts): the provider is not ready for this flag yet.
    return errorDetail(flagKey, fallback, error.startsWith("SEGMENT_LIST_NOT_LOADED") ? "PROVIDER_NOT_READY" : "GENERAL", error, version)
  }
  if (entry.type !== type) {
    return errorDetail(flagKey, fallback, "TYPE_MISMATCH", `flag ${JSON.stringify(flagKey)} is a ${entry.type} flag, not ${type}`, version)
  }
  const split = servedBySplit(entry.compiled, result)
  const isStatic = staticFallthrough(entry.compiled, result)
  const detail: { -readonly [K in keyof Detail<T>]: Detail<T>[K] } = { flagKey, value: result.value as T, variationKey: result.variationKey, reason }
  if (version !== undefined) detail.version = version
  if (split) detail.split = true
  if (isStatic) detail.static = true
  return detail
}
