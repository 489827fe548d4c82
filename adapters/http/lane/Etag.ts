/**
 * `If-None-Match` against our (weak) ETags: a list, weak or strong forms all compare weakly
 * (RFC 9110 13.1.2). `*` matches any current representation, unless `wildcard` is false: the
 * OFREP bulk ETag names one context, and a 304 is never given for a context the client did not name.
 */
export const etagMatches = (ifNoneMatch: string | undefined, etag: string, wildcard = true): boolean => {
  if (ifNoneMatch === undefined) return false
  const opaque = etag.startsWith("W/") ? etag.slice(2) : etag
  for (const raw of ifNoneMatch.split(",")) {
    const candidate = raw.trim()
    if ((wildcard && candidate === "*") || candidate === opaque || candidate === etag || candidate === `W/${opaque}`) return true
  }
  return false
}
