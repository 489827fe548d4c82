/**
 * Optimistic concurrency over HTTP: a flag's `ETag` is its version as a strong entity tag
 * (`"7"`), a configuration's is its environment and version (`"staging:7"`, VersionTags.ts), and
 * `If-Match` on a write names the one the client based its change on.
 */
import * as Errors from "./Errors.js"
export { configEtagOf, etagOf } from "./VersionTags.js"

const STRONG_VERSION = /^"(0|[1-9][0-9]{0,14})"$/
/** An environment key (no quote, colon or space) and a version. */
const CONFIG_VERSION = /^"([^":\s]{1,200}):(0|[1-9][0-9]{0,14})"$/

/** What `If-Match` requires: nothing, a flag's version, or one environment's configuration's version. */
export type IfMatch =
  | { readonly version: undefined; readonly environment?: undefined }
  | { readonly version: number; readonly environment?: undefined }
  | { readonly version: number; readonly environment: string }

/**
 * What an `If-Match` header requires: nothing when there is no header or it is `*` (any current
 * version: the flag must only exist, as for every write). One strong tag as our ETags are written;
 * weak tags never match for `If-Match` (RFC 9110 13.1.1), so anything else is a 400.
 */
export const parseIfMatch = (header: string | undefined): IfMatch | Errors.BadRequest => {
  if (header === undefined) return { version: undefined }
  const value = header.trim()
  if (value === "*") return { version: undefined }
  const flag = STRONG_VERSION.exec(value)
  if (flag !== null) return { version: Number(flag[1]) }
  const config = CONFIG_VERSION.exec(value)
  if (config !== null) return { version: Number(config[2]), environment: config[1]! }
  return Errors.badRequest("If-Match must name one version as an ETag shows it, such as \"3\" (a flag's) or \"staging:3\" (its targeting in one environment), or be *.", [
    { path: "If-Match", message: "expected a quoted version such as \"3\" or \"staging:3\", or *" }
  ])
}
