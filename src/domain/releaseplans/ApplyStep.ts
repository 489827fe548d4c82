/**
 * A step of a release plan, as a change to one rule: the rollout that gives `variationKey` the
 * step's weight and the rule's other variations (the plan's `baseline`) the rest, in their
 * proportions. Pure; the stepper writes the result through the targeting write path.
 *
 * Why the plan's variation comes first: bucketing walks the slices in order (Bucketing.ts), so the
 * first slice holds buckets [0, weight). Growing the weight then only adds units to it, and the
 * same weight always serves the same units, whether reached by ramping, resuming or restarting
 * after a rollback. The rule's seed and `bucketBy` are kept for the same reason.
 */
import { TOTAL_WEIGHT } from "../definitions/RolloutWeight.js"
import type { Rule, WeightedVariation } from "../definitions/Targeting.js"
import { slicesOf } from "./PlanRules.js"

/** The rule's other variations and their weights: what keeps its proportions while the plan ramps. */
export const baselineOf = (rule: Rule, variationKey: string): ReadonlyArray<WeightedVariation> =>
  slicesOf(rule).filter((slice) => slice.variationKey !== variationKey && slice.weight > 0).map((slice) => ({ ...slice }))

/**
 * `total` shared among `shares` in proportion to their weights, in whole units that sum to
 * `total` exactly (largest remainder; ties go to the earlier slice, so the answer is deterministic).
 */
export const apportion = (shares: ReadonlyArray<number>, total: number): ReadonlyArray<number> => {
  const sum = shares.reduce((a, b) => a + b, 0)
  if (sum <= 0) return shares.map(() => 0)
  const exact = shares.map((share) => (share * total) / sum)
  const floors = exact.map(Math.floor)
  let left = total - floors.reduce((a, b) => a + b, 0)
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i)
  const result = [...floors]
  for (const { i } of order) {
    if (left <= 0) break
    result[i] = result[i]! + 1
    left -= 1
  }
  return result
}

/**
 * The rule with its rollout set so `variationKey` has `weight` (0 to 100000) and the baseline's
 * variations share the rest in their proportions. The conditions, name and id stay.
 */
export const applyStep = (
  rule: Rule,
  plan: { readonly variationKey: string; readonly baseline: ReadonlyArray<WeightedVariation> },
  weight: number
): Rule => {
  const others = plan.baseline.filter((slice) => slice.variationKey !== plan.variationKey)
  const rest = apportion(others.map((slice) => slice.weight), TOTAL_WEIGHT - weight)
  const { variationKey: _served, rollout, ...kept } = rule
  return {
    ...kept,
    rollout: {
      ...(rollout?.bucketBy === undefined ? {} : { bucketBy: rollout.bucketBy }),
      ...(rollout?.seed === undefined ? {} : { seed: rollout.seed }),
      variations: [{ variationKey: plan.variationKey, weight }, ...others.map((slice, i) => ({ variationKey: slice.variationKey, weight: rest[i]! }))]
    }
  }
}
