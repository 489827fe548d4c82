/**
 * What a typed evaluation returns, from an evaluator result and the installed configuration:
 * the flag's value, or the caller's fallback with an error code that says why. Shared by
 * `client.detail` and the OpenFeature provider.
 */
import type { EvaluationResult } from "./Core.js"
import type { Installed } from "./Installed.js"
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

export const toDetail = <T>(installed: Installed, flagKey: string, type: FlagType, fallback: T, result: EvaluationResult): Detail<T> => {
  const declared = installed.types.get(flagKey)
  const version = installed.versions.get(flagKey)
  const reason = result.reason
  if (reason.kind === "ERROR") {
    return declared === undefined
      ? errorDetail(flagKey, fallback, "FLAG_NOT_FOUND", reason.error ?? `no flag ${JSON.stringify(flagKey)}`)
      : errorDetail(flagKey, fallback, "GENERAL", reason.error ?? "the flag cannot be evaluated", version)
  }
  if (declared !== type) {
    return errorDetail(flagKey, fallback, "TYPE_MISMATCH", `flag ${JSON.stringify(flagKey)} is a ${declared} flag, not ${type}`, version)
  }
  const compiledFlag = installed.compiled.flags.get(flagKey)
  const split = reason.kind === "RULE_MATCH" && reason.ruleIndex !== undefined && compiledFlag?.rules[reason.ruleIndex]?.rollout != null
  const isStatic = reason.kind === "FALLTHROUGH" && compiledFlag?.rules.length === 0
  return {
    flagKey,
    value: result.value as T,
    variationKey: result.variationKey,
    reason,
    ...(version === undefined ? {} : { version }),
    ...(split ? { split } : {}),
    ...(isStatic ? { static: true } : {})
  }
}
