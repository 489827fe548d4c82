import { excludesZero, type Interval } from "./Interval.js"

export type Goal = "increase" | "decrease"
export type Verdict = "better" | "worse" | "inconclusive"

/** The intervals a comparison shows (each null where the data cannot give it). */
export interface ShownIntervals {
  /** Treatment minus control. */
  readonly absolute: { readonly ci: Interval | null } | null
  /** Treatment over control minus 1 (null when the control's mean is 0). */
  readonly relative: { readonly ci: Interval | null } | null
}

/**
 * The one verdict rule (docs/guide/experiments.md, "The verdict"), for every method and for a
 * release plan's guardrails alike: a treatment is `better` or `worse` only when every interval
 * the comparison shows agrees. The difference's interval lies wholly on one side of zero, and so
 * does the lift's when there is a lift, on the matching side: the same side for a control mean
 * above zero, the other side below zero (a lift over a negative mean has the opposite sign of the
 * change). The side of the difference then says which way the metric moved: `better` when that is
 * the goal's way (up for an increase goal, down for a decrease goal), `worse` when not. Otherwise,
 * `inconclusive`: the two intervals rest on different approximations (Welch's t against the delta
 * method's normal, or two confidence sequences), and near the edge one may exclude zero while the
 * other does not; a result whose figures disagree is not evidence either way.
 * "Not enough data" (`ExperimentAnalysis.ts`) comes on top: it makes every verdict inconclusive.
 */
export const verdictOf = (shown: ShownIntervals, controlMean: number, goal: Goal): Verdict => {
  const difference = shown.absolute?.ci ?? null
  if (difference === null || !excludesZero(difference)) return "inconclusive"
  const rose = difference[0] > 0
  if (shown.relative !== null) {
    const lift = shown.relative.ci
    if (lift === null || !excludesZero(lift) || lift[0] > 0 !== (rose === controlMean > 0)) return "inconclusive"
  }
  return rose === (goal === "increase") ? "better" : "worse"
}
