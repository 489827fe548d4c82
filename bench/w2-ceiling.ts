/**
 * The hand-written ceiling for W2 (bench/workloads.ts): a plain function written for that one
 * configuration, what an evaluator specialised to it by hand costs. Rules 1 and 2 as comparisons
 * written out, rule 3 the contract's bucketing hash (Murmur3.ts, the very function Flagport calls,
 * resumed from the flag key's prefix state), and the same precomputed result objects' shape. The
 * evaluator and peer benchmarks time it beside Flagport's `evaluate` in the same run; a check makes
 * sure it serves what Flagport serves for every context.
 */
import { hashThreshold } from "../src/domain/evaluation/Bucketing.js"
import type { EvaluationResult } from "../src/domain/evaluation/EvaluationResult.js"
import { hashRest, prefixState } from "../src/domain/evaluation/Murmur3.js"

const FLAG = "checkout-variant"
const result = (value: string, variationKey: string, ruleId: string, ruleIndex: number): EvaluationResult =>
  Object.freeze({ flagKey: FLAG, value, variationKey, reason: Object.freeze({ kind: "RULE_MATCH" as const, ruleId, ruleIndex }) })
const PAID = result("a", "A", "north-america-paid", 0)
const STAFF = result("b", "B", "staff", 1)
const HALF_A = result("a", "A", "half", 2)
const HALF_C = result("c", "C", "half", 2)
const STATE = prefixState(`${FLAG}.`)
const HALF = hashThreshold(50_000)

interface W2Context {
  readonly key?: string | undefined
  readonly attributes?: { readonly [name: string]: unknown } | undefined
}

export const w2Ceiling = (context: W2Context): EvaluationResult => {
  const attributes = context.attributes!
  const country = attributes["country"]
  if (country === "US" || country === "CA" || country === "MX") {
    const plan = attributes["plan"]
    if (plan === "pro" || plan === "enterprise") return PAID
  }
  const email = attributes["email"]
  if (typeof email === "string" && email.endsWith("@example.com")) return STAFF
  return hashRest(STATE.h, STATE.tail, STATE.tailBytes, STATE.length, context.key!) >>> 0 < HALF ? HALF_A : HALF_C
}

/** Throws unless the ceiling serves Flagport's variation and rule for every context. */
export const checkCeiling = (contexts: ReadonlyArray<W2Context>, flagport: (context: W2Context) => EvaluationResult): void => {
  for (const context of contexts) {
    const a = w2Ceiling(context)
    const b = flagport(context)
    if (a.variationKey !== b.variationKey || a.reason.ruleId !== b.reason.ruleId) {
      throw new Error(`the W2 ceiling disagrees with Flagport for ${JSON.stringify(context)}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`)
    }
  }
}
