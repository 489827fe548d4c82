/**
 * Optimistic concurrency over HTTP: a flag's `ETag` is its version as a strong entity tag
 * (`"7"`), and `If-Match` on a write names the version the client based its change on.
 */
import * as Errors from "./Errors.js"

/** The `ETag` of a flag at `version`. */
export const etagOf = (version: number): string => `"${version}"`

const STRONG_VERSION = /^"(0|[1-9][0-9]{0,14})"$/

/**
 * The version an `If-Match` header requires: `undefined` when there is no header or it is `*`
 * (any current version: the flag must only exist, as for every write). One strong tag as our
 * ETags are written; weak tags never match for `If-Match` (RFC 9110 13.1.1), so anything else is a 400.
 */
export const parseIfMatch = (header: string | undefined): { readonly version: number | undefined } | Errors.BadRequest => {
  if (header === undefined) return { version: undefined }
  const value = header.trim()
  if (value === "*") return { version: undefined }
  const match = STRONG_VERSION.exec(value)
  if (match === null) {
    return Errors.badRequest("If-Match must name one version as the flag's ETag shows it, such as \"3\", or be *.", [
      { path: "If-Match", message: "expected a quoted version such as \"3\" or *" }
    ])
  }
  return { version: Number(match[1]) }
}
