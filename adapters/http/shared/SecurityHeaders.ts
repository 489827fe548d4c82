/**
 * The headers every answer of Flagport carries, whichever route and transport made it (issue 26:
 * a JSON body must never be sniffed into HTML, and no answer may be framed by another site). The
 * dashboard and /docs send a fuller Content-Security-Policy of their own, which wins over this one.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "content-security-policy": "frame-ancestors 'none'"
}

const NAMES = Object.keys(SECURITY_HEADERS)

/** Sets the headers a web Response lacks (a copy when its headers are immutable, as fetch's are). */
export const withSecurityHeaders = (response: Response): Response => {
  const missing = NAMES.filter((name) => !response.headers.has(name))
  if (missing.length === 0) return response
  try {
    for (const name of missing) response.headers.set(name, SECURITY_HEADERS[name]!)
    return response
  } catch {
    const headers = new Headers(response.headers)
    for (const name of missing) headers.set(name, SECURITY_HEADERS[name]!)
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  }
}

/** Sets them on a node response before a handler that writes its own headers (they merge; its own win). */
export const setSecurityHeaders = (res: { setHeader: (name: string, value: string) => unknown }): void => {
  for (const name of NAMES) res.setHeader(name, SECURITY_HEADERS[name]!)
}
