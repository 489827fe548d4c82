import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./StorageError.js"

/** Evaluations of one variation of one flag in one hour bucket (`hour`: the hour's start, ISO 8601 UTC). */
export interface HourlyCount {
  readonly projectId: string
  readonly environmentKey: string
  readonly flagKey: string
  readonly variationKey: string
  readonly hour: string
  readonly count: number
}

/** The last time a flag was evaluated in one environment (ISO 8601 UTC). */
export interface LastEvaluated {
  readonly projectId: string
  readonly environmentKey: string
  readonly flagKey: string
  readonly at: string
}

/**
 * Stored evaluation counts. Counts only ever grow: `add` adds to what is stored (never replaces),
 * so two processes flushing into one database both count, and a flush that fails changes nothing.
 * Sums saturate at `MAX_COUNT` (domain/insights/ReportBounds.ts) instead of overflowing.
 */
export interface InsightsRepositoryShape {
  /**
   * Adds every count to its bucket (creating it at zero) and moves each `lastEvaluated` forward
   * (an older instant than the stored one is ignored), all in one transaction: either every row
   * is written or none.
   */
  readonly add: (counts: ReadonlyArray<HourlyCount>, lastEvaluated: ReadonlyArray<LastEvaluated>) => Effect.Effect<void, StorageError>
  /** The non-empty buckets of one flag in one environment with `fromHour <= hour <= toHour`, in hour order. */
  readonly series: (
    projectId: string,
    environmentKey: string,
    flagKey: string,
    fromHour: string,
    toHour: string
  ) => Effect.Effect<ReadonlyArray<HourlyCount>, StorageError>
  /**
   * Deletes up to `limit` hourly counts of hours before `beforeHour` (every project), oldest
   * first; answers how many went. Last evaluations are kept (stale flags need them).
   */
  readonly prune: (beforeHour: string, limit: number) => Effect.Effect<number, StorageError>
  /** Every flag's last evaluation in each environment of the project. */
  readonly lastEvaluated: (projectId: string) => Effect.Effect<ReadonlyArray<LastEvaluated>, StorageError>
}

export class InsightsRepository extends Context.Tag("@flagport/ports/InsightsRepository")<InsightsRepository, InsightsRepositoryShape>() {}
