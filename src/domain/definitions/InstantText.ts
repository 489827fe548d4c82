/**
 * The one test of an instant sent as text: ISO 8601 date and time with an explicit zone (`Z` or
 * an offset such as `+02:00`), which `Date.parse` also reads. Schedules, insights and the ingestion
 * routes' fast decoder all use this, so none of them accepts what the others refuse.
 */

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** True for an ISO 8601 instant with a zone that `Date.parse` reads, e.g. `2026-12-01T09:00:00Z`. */
export const isInstantText = (text: string): boolean => INSTANT.test(text) && !Number.isNaN(Date.parse(text))
