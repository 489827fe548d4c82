import { excludesZero, type Interval } from "./Interval.js"

export type Goal = "increase" | "decrease"
export type Verdict = "better" | "worse" | "inconclusive"

/**
 * The verdict a decisive interval of the treatment minus (or over) the control gives: when it
 * lies wholly on one side of zero, `better` if that side is the goal's (above zero for an
 * increase goal, below for a decrease goal) and `worse` if not; otherwise `inconclusive`.
 */
export const verdictOf = (interval: Interval, goal: Goal): Verdict => {
  if (!excludesZero(interval)) return "inconclusive"
  const rose = interval[0] > 0
  return rose === (goal === "increase") ? "better" : "worse"
}
