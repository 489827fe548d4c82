/**
 * Flagport's reasons in OpenFeature's words, the one mapping shared by the OpenFeature provider
 * (through the client SDK's details) and the OFREP endpoints:
 *
 *   RULE_MATCH  -> TARGETING_MATCH, or SPLIT when the rule serves a percentage rollout
 *   FALLTHROUGH -> STATIC when the flag has no rules, else DEFAULT
 *   OFF         -> DISABLED
 *   PREREQUISITE_FAILED -> PREREQUISITE_FAILED (not one of OpenFeature's standard reasons, which
 *                  have none for a prerequisite not met; OpenFeature allows other strings)
 *   ERROR       -> ERROR
 *
 * Which of the two a RULE_MATCH or a FALLTHROUGH is depends on the compiled flag that answered,
 * not on the result alone.
 */
import type { CompiledFlag } from "./Compiled.js"
import type { EvaluationResult } from "./EvaluationResult.js"

export type OpenFeatureReason = "TARGETING_MATCH" | "SPLIT" | "STATIC" | "DEFAULT" | "DISABLED" | "PREREQUISITE_FAILED" | "ERROR"

/** The result came from a rule that serves a percentage rollout. */
export const servedBySplit = (flag: CompiledFlag, result: EvaluationResult): boolean =>
  result.reason.kind === "RULE_MATCH" && result.reason.ruleIndex !== undefined && flag.rules[result.reason.ruleIndex]?.rollout != null

/** The result is the default of a flag without rules: nothing about the context could change it. */
export const staticFallthrough = (flag: CompiledFlag, result: EvaluationResult): boolean =>
  result.reason.kind === "FALLTHROUGH" && flag.rules.length === 0

/** The OpenFeature reason of `result`, which `flag` answered. */
export const openFeatureReason = (flag: CompiledFlag, result: EvaluationResult): OpenFeatureReason => {
  switch (result.reason.kind) {
    case "RULE_MATCH":
      return servedBySplit(flag, result) ? "SPLIT" : "TARGETING_MATCH"
    case "FALLTHROUGH":
      return staticFallthrough(flag, result) ? "STATIC" : "DEFAULT"
    case "OFF":
      return "DISABLED"
    case "PREREQUISITE_FAILED":
      return "PREREQUISITE_FAILED"
    case "ERROR":
      return "ERROR"
  }
}
