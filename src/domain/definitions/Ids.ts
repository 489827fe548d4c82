import * as Schema from "effect/Schema"
/** Keys of flags, variations, environments and segments (contract: Conventions). */
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** Project ids are lowercase slugs chosen at creation; the seed makes `default`. */
export const PROJECT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/

export const Key = Schema.String.pipe(
  Schema.pattern(KEY_PATTERN, {
    message: () => "must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
  })
)

export const ProjectId = Schema.String.pipe(
  Schema.pattern(PROJECT_ID_PATTERN, {
    message: () => "must match ^[a-z0-9][a-z0-9_-]{0,62}$"
  })
)

/** ISO 8601 UTC with milliseconds, e.g. `2026-11-21T23:43:57.123Z`. */
export const Timestamp = Schema.String

/** Formats epoch milliseconds (from Effect's Clock) as a contract timestamp. */
export const formatTimestamp = (epochMillis: number): string => new Date(epochMillis).toISOString()
