/**
 * Rollout weights are thousandths of a percent: a rollout's weights sum to exactly this, and
 * bucketing maps every context to one of this many buckets. Validation, the compiler and
 * bucketing all read it from here.
 */
export const TOTAL_WEIGHT = 100_000
