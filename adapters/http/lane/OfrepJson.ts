/**
 * OFREP's evaluation bodies from `Evaluate`'s results:
 *
 *   success  {"key","value","reason","variant","metadata":{"ruleId"?,"ruleIndex"?,"prerequisiteKey"?,"version"?}}
 *   ERROR    {"key","errorCode":"GENERAL","errorDetails","metadata":{"version"?}}
 *
 * `reason` is OpenFeature's (OpenFeatureReason.ts), `variant` the variation key, `version` the
 * flag's. As for POST /v1/evaluate (ResultJson.ts), each result the evaluator returns is a
 * frozen object precomputed by `compile`, and belongs to one flag of one compiled configuration,
 * so its OFREP JSON is computed once and reused: a bulk body is a concatenation of cached
 * fragments. Results that are not frozen are serialized every time.
 *
 * The bulk ETag depends on the configuration's ETag and the canonical JSON of the context (keys
 * sorted at every level), so a 304 is never served for another context or another configuration.
 */
import { hash } from "node:crypto"
import type { CompiledFlag } from "../../../src/domain/evaluation/Evaluator.js"
import type { EvaluationResult } from "../../../src/domain/evaluation/EvaluationResult.js"
import { openFeatureReason } from "../../../src/domain/evaluation/OpenFeatureReason.js"

const fragments = new WeakMap<EvaluationResult, string>()

const metadataJson = (result: EvaluationResult, version: number | undefined): string => {
  const parts: Array<string> = []
  if (result.reason.ruleId !== undefined) parts.push(`"ruleId":${JSON.stringify(result.reason.ruleId)}`)
  if (result.reason.ruleIndex !== undefined) parts.push(`"ruleIndex":${JSON.stringify(result.reason.ruleIndex)}`)
  // With the reason PREREQUISITE_FAILED: the prerequisite flag not met.
  if (result.reason.prerequisiteKey !== undefined) parts.push(`"prerequisiteKey":${JSON.stringify(result.reason.prerequisiteKey)}`)
  if (version !== undefined) parts.push(`"version":${JSON.stringify(version)}`)
  return `{${parts.join(",")}}`
}

const build = (flagKey: string, flag: CompiledFlag, result: EvaluationResult, version: number | undefined): string => {
  const key = JSON.stringify(flagKey)
  const metadata = metadataJson(result, version)
  if (isOfrepError(result)) {
    const details = JSON.stringify(result.reason.error ?? "The flag cannot be evaluated")
    return `{"key":${key},"errorCode":"GENERAL","errorDetails":${details},"metadata":${metadata}}`
  }
  return `{"key":${key},"value":${JSON.stringify(result.value)},"reason":"${openFeatureReason(flag, result)}","variant":${JSON.stringify(result.variationKey)},"metadata":${metadata}}`
}

/** Whether the OFREP body of `result` is an error (`errorCode`) rather than a value. */
export const isOfrepError = (result: EvaluationResult): boolean => result.reason.kind === "ERROR" || result.variationKey === null

/** The OFREP JSON of one result of `flag` (the flag that answered it), cached when the result is frozen. */
export const ofrepFlagJson = (flagKey: string, flag: CompiledFlag, result: EvaluationResult, version: number | undefined): string => {
  let json = fragments.get(result)
  if (json === undefined) {
    json = build(flagKey, flag, result, version)
    if (Object.isFrozen(result)) fragments.set(result, json)
  }
  return json
}

/** The fragment when cached (the common case: no flag lookup needed), else undefined. */
export const cachedOfrepFlagJson = (result: EvaluationResult): string | undefined => fragments.get(result)

/**
 * `ofrepFlagJson`'s fragments as UTF-8 bytes after a comma (what the bulk body copies: the comma
 * precedes every fragment but the first), for frozen results.
 */
const fragmentBytes = new WeakMap<EvaluationResult, Buffer>()

/** `,` and the fragment's bytes when cached (the common case: no flag lookup needed), else undefined. */
export const cachedOfrepFlagBytes = (result: EvaluationResult): Buffer | undefined => fragmentBytes.get(result)

/** `,` and `ofrepFlagJson` as UTF-8 bytes, cached when the result is frozen. */
export const ofrepFlagBytes = (flagKey: string, flag: CompiledFlag, result: EvaluationResult, version: number | undefined): Buffer => {
  const bytes = Buffer.from(`,${ofrepFlagJson(flagKey, flag, result, version)}`)
  if (Object.isFrozen(result)) fragmentBytes.set(result, bytes)
  return bytes
}

/** JSON with object keys sorted at every level: equal contexts give equal text whatever their key order. */
export const canonicalJson = (value: unknown): string => {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  const record = value as Record<string, unknown>
  const names = Object.keys(record).sort()
  // A loop, not map/join: this runs on every bulk evaluation.
  let out = "{"
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!
    out += `${i === 0 ? "" : ","}${JSON.stringify(name)}:${canonicalJson(record[name])}`
  }
  return `${out}}`
}

/** The bulk ETag: a weak validator over the configuration's ETag and the canonical context. */
export const bulkEtagOf = (configEtag: string, context: unknown): string =>
  `W/"${hash("sha256", `${configEtag}\n${canonicalJson(context)}`, "base64url").slice(0, 27)}"`
