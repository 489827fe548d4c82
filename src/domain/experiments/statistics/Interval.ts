/** A two-sided interval `[lower, upper]`, as the results show every confidence or credible interval. */
export type Interval = readonly [number, number]

/** `estimate ± halfWidth`. */
export const around = (estimate: number, halfWidth: number): Interval => [estimate - halfWidth, estimate + halfWidth]

/** Whether the interval lies wholly on one side of zero (0 on its edge counts as touching). */
export const excludesZero = (interval: Interval): boolean => interval[0] > 0 || interval[1] < 0
