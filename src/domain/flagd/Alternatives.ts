/**
 * Adjacent rules serving the same variation joined into one rule with an `anyOf` group: flagd's
 * `or` (and anything else that expands into alternatives, such as `sem_ver`'s `>=`) reads as one
 * rule, as it was written, instead of one rule per alternative.
 *
 * Rules are tried in order and the first that matches decides, so two adjacent rules serving the
 * same variation are one rule matching when either matches: the join changes no answer (the
 * parity tests against flagd's own evaluator check it). Conditions every rule of the run shares
 * stay plain beside the group (`A and (B or C)`). A run is joined only within the limits of a
 * group (20 lists of 20 conditions, Limits.ts); a longer run becomes several joined rules. Rollouts
 * are never joined (each buckets on its own).
 */
import type { Condition, RuleInput } from "../definitions/Targeting.js"
import { LIMITS } from "../Limits.js"

/** A rule as DecisionList.ts writes it: plain conditions only. */
export interface PlainRule extends Omit<RuleInput, "conditions"> {
  readonly conditions: ReadonlyArray<Condition>
}

const LISTS = LIMITS.listsPerGroup.value
const PER_LIST = LIMITS.conditionsPerList.value
const PER_RULE = LIMITS.conditionsPerRule.value

const sameCondition = (a: Condition, b: Condition): boolean =>
  JSON.stringify([a.attribute, a.operator, a.values, a.negate ?? false]) === JSON.stringify([b.attribute, b.operator, b.values, b.negate ?? false])

/** One rule for a run of rules serving the same variation (two or more). */
const joined = (run: ReadonlyArray<PlainRule>): RuleInput => {
  const [first] = run
  const shared = first!.conditions.filter((c) => run.every((r) => r.conditions.some((o) => sameCondition(o, c))))
  const rests = run.map((r) => r.conditions.filter((c) => !shared.some((s) => sameCondition(s, c))))
  // A rule with nothing beyond the shared conditions matches whenever any of the run does.
  const conditions = rests.some((rest) => rest.length === 0) ? shared : [...shared, { anyOf: rests }]
  return { ...first!, conditions }
}

/** Whether `rule` may join a run serving `variationKey`: a single variation, and few enough conditions for a list and a rule. */
const joins = (rule: PlainRule, variationKey: string | undefined): boolean =>
  variationKey !== undefined && rule.variationKey === variationKey && rule.rollout === undefined && rule.conditions.length >= 1 && rule.conditions.length <= Math.min(PER_LIST, PER_RULE - 1)

export const joinAlternatives = (rules: ReadonlyArray<PlainRule>): ReadonlyArray<RuleInput> => {
  const out: Array<RuleInput> = []
  let i = 0
  while (i < rules.length) {
    const rule = rules[i]!
    let end = i + 1
    if (joins(rule, rule.variationKey)) {
      while (end < rules.length && end - i < LISTS && joins(rules[end]!, rule.variationKey)) end++
    }
    out.push(end - i === 1 ? rule : joined(rules.slice(i, end)))
    i = end
  }
  return out
}
