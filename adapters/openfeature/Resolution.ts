/**
 * From a client `Detail` to OpenFeature's `ResolutionDetails`, and from an OpenFeature context to
 * a Flagport one: the one place the provider's mapping lives.
 *
 *   RULE_MATCH  -> TARGETING_MATCH, or SPLIT when the rule serves a percentage rollout
 *   FALLTHROUGH -> STATIC when the flag has no rules, else DEFAULT
 *   OFF         -> DISABLED
 *   PREREQUISITE_FAILED -> "PREREQUISITE_FAILED" (not one of OpenFeature's standard reasons, which
 *                  have none for it; `flagMetadata.prerequisiteKey` names the flag not met)
 *   ERROR       -> ERROR with FLAG_NOT_FOUND, TYPE_MISMATCH, PROVIDER_NOT_READY or GENERAL,
 *                  and the caller's default value
 *
 * `variant` is the variation key; `flagMetadata` carries `ruleId`, `ruleIndex` and the flag's
 * `version` when they exist. `targetingKey` is the context key and every other property an
 * attribute; without a targeting key the flag is evaluated with the key absent, never refused.
 */
import {
  ErrorCode,
  type EvaluationContext,
  type FlagMetadata,
  type ResolutionDetails,
  StandardResolutionReasons
} from "@openfeature/server-sdk"
import type { Detail, ErrorCode as FlagportErrorCode, FlagContext } from "../client/index.js"

const ERROR_CODES: Record<FlagportErrorCode, ErrorCode> = {
  PROVIDER_NOT_READY: ErrorCode.PROVIDER_NOT_READY,
  FLAG_NOT_FOUND: ErrorCode.FLAG_NOT_FOUND,
  TYPE_MISMATCH: ErrorCode.TYPE_MISMATCH,
  GENERAL: ErrorCode.GENERAL
}

/** `{ targetingKey, ...attributes }` to `{ key, attributes }`, by a loop: a rest spread costs more than the evaluation. */
export const toFlagContext = (context: EvaluationContext): FlagContext => {
  const attributes: Record<string, unknown> = {}
  for (const name in context) {
    if (name === "targetingKey") continue
    if (name === "__proto__") Object.defineProperty(attributes, name, { value: context[name], enumerable: true, writable: true, configurable: true })
    else attributes[name] = context[name]
  }
  const targetingKey = context.targetingKey
  return typeof targetingKey === "string" && targetingKey !== "" ? { key: targetingKey, attributes } : { attributes }
}

const reasonOf = (detail: Detail<unknown>): string => {
  switch (detail.reason.kind) {
    case "RULE_MATCH":
      return detail.split === true ? StandardResolutionReasons.SPLIT : StandardResolutionReasons.TARGETING_MATCH
    case "FALLTHROUGH":
      return detail.static === true ? StandardResolutionReasons.STATIC : StandardResolutionReasons.DEFAULT
    case "OFF":
      return StandardResolutionReasons.DISABLED
    case "PREREQUISITE_FAILED":
      return "PREREQUISITE_FAILED"
    default:
      return StandardResolutionReasons.ERROR
  }
}

const metadataOf = (detail: Detail<unknown>): FlagMetadata => {
  const metadata: Record<string, string | number> = {}
  if (detail.reason.ruleId !== undefined) metadata.ruleId = detail.reason.ruleId
  if (detail.reason.ruleIndex !== undefined) metadata.ruleIndex = detail.reason.ruleIndex
  if (detail.reason.prerequisiteKey !== undefined) metadata.prerequisiteKey = detail.reason.prerequisiteKey
  if (detail.version !== undefined) metadata.version = detail.version
  return metadata
}

export const toResolution = <T>(detail: Detail<T>): ResolutionDetails<T> => {
  const resolution: { -readonly [K in keyof ResolutionDetails<T>]: ResolutionDetails<T>[K] } = {
    value: detail.value,
    reason: reasonOf(detail),
    flagMetadata: metadataOf(detail)
  }
  if (detail.errorCode !== undefined) {
    resolution.errorCode = ERROR_CODES[detail.errorCode]
    if (detail.reason.error !== undefined) resolution.errorMessage = detail.reason.error
  } else if (detail.variationKey !== null) resolution.variant = detail.variationKey
  return resolution
}
