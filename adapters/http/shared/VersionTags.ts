/**
 * How versions are written as entity tags, in one place (Versions.ts parses them back; the 412's
 * details name them): a flag's is its version (`"7"`), one environment's configuration's is the
 * environment and its version (`"staging:7"`), so the two can never be taken for each other.
 */

/** The `ETag` of a flag at `version`. */
export const etagOf = (version: number): string => `"${version}"`

/** The `ETag` of a flag's configuration in `environment` at `version`. */
export const configEtagOf = (environment: string, version: number): string => `"${environment}:${version}"`
